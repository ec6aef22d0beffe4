/* SPDX-License-Identifier: GPL-2.0 */
/* Every traced function's programs attached on the path planned. */
#ifndef EXT4DIST_TOOL_ATTACH_PATHS_H
#define EXT4DIST_TOOL_ATTACH_PATHS_H

#include "tool/engine/tracer_priv.h"

/* The path in t->rec.attach; 0 or -errno with why in eb. */
int tracer_attach_chosen(struct tracer *t, struct errbuf *eb);

#endif
