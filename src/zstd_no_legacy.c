// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into the static binary before libzstd (Makefile): zstd's
 * decoders of the frame formats v0.5 to v0.7 (2015-2016), which
 * Debian's libzstd.a carries (ZSTD_LEGACY_SUPPORT) and which ext4dist
 * never needs: the only zstd it reads is a kernel module (.ko.zst),
 * written by the zstd of the kernel's build, 1.4 or later.  These
 * definitions come first, so the linker leaves libzstd's own out (90 KB
 * of the x86_64 binary).  A legacy frame is then refused as a version
 * zstd does not support (module_file.c: -EINVAL, "not a module file").
 */
#include <stddef.h>
#include <zstd_errors.h>

#define UNSUPPORTED ((size_t)-ZSTD_error_version_unsupported)
/* zstd.h's ZSTD_CONTENTSIZE_ERROR. */
#define CONTENTSIZE_ERROR (0ULL - 2)

/* A context of no size: only ever handed back to the stubs below. */
static char no_context;

#define LEGACY(v)							\
void *ZSTD##v##_createDCtx(void);					\
void *ZSTD##v##_createDCtx(void)					\
{									\
	return &no_context;						\
}									\
size_t ZSTD##v##_freeDCtx(void *dctx);					\
size_t ZSTD##v##_freeDCtx(void *dctx)					\
{									\
	(void)dctx;							\
	return 0;							\
}									\
size_t ZSTD##v##_decompress_usingDict(void *dctx, void *dst,		\
				      size_t cap, const void *src,	\
				      size_t len, const void *dict,	\
				      size_t dict_len);			\
size_t ZSTD##v##_decompress_usingDict(void *dctx, void *dst,		\
				      size_t cap, const void *src,	\
				      size_t len, const void *dict,	\
				      size_t dict_len)			\
{									\
	(void)dctx; (void)dst; (void)cap; (void)src; (void)len;		\
	(void)dict; (void)dict_len;					\
	return UNSUPPORTED;						\
}									\
size_t ZSTD##v##_getFrameParams(void *params, const void *src,		\
				size_t len);				\
size_t ZSTD##v##_getFrameParams(void *params, const void *src,		\
				size_t len)				\
{									\
	(void)params; (void)src; (void)len;				\
	return UNSUPPORTED;						\
}									\
void ZSTD##v##_findFrameSizeInfoLegacy(const void *src, size_t len,	\
				       size_t *csize,			\
				       unsigned long long *dbound);	\
void ZSTD##v##_findFrameSizeInfoLegacy(const void *src, size_t len,	\
				       size_t *csize,			\
				       unsigned long long *dbound)	\
{									\
	(void)src; (void)len;						\
	*csize = UNSUPPORTED;						\
	*dbound = CONTENTSIZE_ERROR;					\
}									\
void *ZBUFF##v##_createDCtx(void);					\
void *ZBUFF##v##_createDCtx(void)					\
{									\
	return &no_context;						\
}									\
size_t ZBUFF##v##_freeDCtx(void *dctx);					\
size_t ZBUFF##v##_freeDCtx(void *dctx)					\
{									\
	(void)dctx;							\
	return 0;							\
}									\
size_t ZBUFF##v##_decompressInitDictionary(void *dctx,			\
					   const void *dict,		\
					   size_t len);			\
size_t ZBUFF##v##_decompressInitDictionary(void *dctx,			\
					   const void *dict,		\
					   size_t len)			\
{									\
	(void)dctx; (void)dict; (void)len;				\
	return UNSUPPORTED;						\
}									\
size_t ZBUFF##v##_decompressContinue(void *dctx, void *dst,		\
				     size_t *cap, const void *src,	\
				     size_t *len);			\
size_t ZBUFF##v##_decompressContinue(void *dctx, void *dst,		\
				     size_t *cap, const void *src,	\
				     size_t *len)			\
{									\
	(void)dctx; (void)dst; (void)src;				\
	*cap = 0;	/* nothing written */				\
	*len = 0;	/* nothing read */				\
	return UNSUPPORTED;						\
}

LEGACY(v05)
LEGACY(v06)
LEGACY(v07)
