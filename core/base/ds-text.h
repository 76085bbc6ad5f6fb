/* ds-text.h: text from a file or a device, made safe to print
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @text (a model, a serial, a path, a note, an error message: anything a
 * device or a file said) as valid UTF-8 that a terminal prints and does
 * not act on, on one line, every character still visible:
 *  - \n, \r and \t become the two characters "\n", "\r", "\t";
 *  - other C0 controls (ESC included), DEL and bytes that are not UTF-8
 *    become "\xNN" (the byte's value); C1 controls (U+0080..U+009F, which
 *    some terminals read as ESC sequences) and the bidirectional overrides
 *    and isolates (U+202A..U+202E, U+2066..U+2069, which reorder what the
 *    reader sees) become "\u0085"-style escapes;
 *  - everything else, backslashes included, is kept.
 * NULL gives "".  Free with g_free(). */
char *ds_text_sanitize       (const char *text);

/* ds_text_sanitize(), cut to @max_chars characters (an ellipsis counts as
 * one) for quoting a file's content in a message. */
char *ds_text_sanitize_short (const char *text,
                              gsize       max_chars);

G_END_DECLS
