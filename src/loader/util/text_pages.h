/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DIST_TEXT_PAGES_H
#define EXT4DIST_TEXT_PAGES_H

void text_pages_drop(void);

#endif
