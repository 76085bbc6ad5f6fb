/* ds-png-text.h: text chunks (tEXt, iTXt) in a PNG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @png with a text chunk for each key and value of @keys_values (NULL
 * terminated, key, value, key, value…), placed right after the header so
 * readers that stop at the image data still see them.  Keys are PNG
 * keywords ("Title", "Description", "Creation Time", "Software", …: 1 to
 * 79 printable ASCII characters, no leading, trailing or double spaces); values are UTF-8, written as tEXt when
 * they are plain ASCII and as iTXt (uncompressed UTF-8) when not.
 * DS_ERROR_INVALID when @png is not a PNG or a key is not a keyword. */
GBytes   *ds_png_add_text   (GBytes             *png,
                             const char *const  *keys_values,
                             GError            **error);

/* The value of @key's first tEXt or uncompressed iTXt chunk in @png, or
 * NULL. */
char     *ds_png_get_text   (GBytes             *png,
                             const char         *key);

/* The value of a picture's "Warnings" text chunk: each of @warnings
 * (DsWarning *, env/ds-warnings.h) on a line of its own, "sentence
 * (code)", as the window's bar shows them; NULL when there are none. */
char     *ds_png_warnings_text (const GPtrArray *warnings);

G_END_DECLS
