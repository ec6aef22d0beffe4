/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel strings (comm, file names) are bytes; BCC's tools print them
 * decoded as UTF-8 with errors replaced (Python's bytes.decode('utf-8',
 * 'replace')), and Python pads and truncates by code point.  The same
 * here, so that a name in any encoding prints as BCC prints it.
 */
#ifndef EXT4DIST_OUTPUT_UTF8_H
#define EXT4DIST_OUTPUT_UTF8_H

#include <stddef.h>
#include <stdio.h>

/* U+FFFD as UTF-8: what replaces each invalid sequence. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * Decodes len bytes of src (up to a NUL) into dst (size bytes, NUL
 * terminated; 3 * len + 1 always suffices), every ill-formed sequence
 * replaced by U+FFFD as Python does it (one per maximal subpart, Unicode
 * 3.9 D93b).  Returns the number of code points written.
 */
size_t utf8_clean(const char *src, size_t len, char *dst, size_t size);

/*
 * Prints the clean UTF-8 string s as Python's "%-W.Ps" would: at most
 * prec code points (prec < 0: all), then spaces up to width code points
 * (width 0: none), counted before escaping.  Escaped, so that a name can
 * neither end a line nor send a terminal a command: each control
 * character (C0 U+0000-U+001F, DEL U+007F, C1 U+0080-U+009F) and each
 * ASCII character of also (may be NULL) as \xHH, two lower-case hex
 * digits of its code point; a backslash as \\.  Returns 0 or -EIO.
 */
int utf8_put_field(FILE *f, const char *s, int width, int prec,
		   const char *also);

#endif
