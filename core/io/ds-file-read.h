/* ds-file-read.h: reading a file the user named, whatever it turns out to be
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file Diskscope reads on a user's word goes through here: result
 * files (report, compare, the library, the app's Open), fio's JSON and
 * logs (import-fio), saved smartctl output (health --from-json).  A path
 * may name anything: a FIFO (reading it blocks until someone writes),
 * /dev/zero (endless), a folder, a socket, a 10 GB file, a file that grows
 * while it is read.  So: open without blocking and without taking a
 * terminal, refuse what is not a regular file, check the size before
 * reading, and read no more than the caller's bound whatever fstat() said.
 * The caller then parses within its own bounds (ds_json_check_bounds()
 * for JSON; a line length and line count for fio's logs).
 *
 * The path in messages is sanitized (ds_text_sanitize()): a file name is
 * anyone's text too.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Opens @path for reading.  @what says what the file should be, in
 * messages: "a result file", "fio's JSON output".  @cap_name names the
 * bound @max_bytes in messages (a constant of ds-limits.h).  Returns a
 * blocking O_CLOEXEC descriptor and *@ret_size (fstat's), or -1 with
 * @error: DS_ERROR_NOT_FOUND, DS_ERROR_PERMISSION, DS_ERROR_CORRUPT (not
 * a regular file, or larger than @max_bytes), DS_ERROR_FAILED. */
int       ds_file_open_bounded  (const char  *path,
                                 const char  *what,
                                 uint64_t     max_bytes,
                                 const char  *cap_name,
                                 uint64_t    *ret_size,
                                 GError     **error);

/* The whole of @path, NUL-terminated, opened as above and read up to
 * @max_bytes + 1 bytes (a file that grows past the bound while it is read
 * is refused like a large one).  Free *@ret_data with g_free(). */
gboolean  ds_file_read_bounded  (const char  *path,
                                 const char  *what,
                                 uint64_t     max_bytes,
                                 const char  *cap_name,
                                 char       **ret_data,
                                 gsize       *ret_length,
                                 GError     **error);

/* ---- line by line (fio's logs: too large to hold whole) ----------------- */

typedef struct _DsLineReader DsLineReader;

/* Opens @path as ds_file_open_bounded() does; lines are at most
 * @max_line_bytes long (a longer one is an error naming its number). */
DsLineReader *ds_line_reader_open   (const char    *path,
                                     const char    *what,
                                     uint64_t       max_bytes,
                                     const char    *cap_name,
                                     gsize          max_line_bytes,
                                     GError       **error);
/* The next line, without its '\n' and NUL-terminated, in *@ret_line
 * (valid until the next call).  FALSE at the end (no error) or on an
 * error (@error set: a read error, a NUL byte, a line too long, more than
 * the reader's byte bound read). */
gboolean      ds_line_reader_next   (DsLineReader  *reader,
                                     char         **ret_line,
                                     GError       **error);
/* The number of the line last returned (1-based). */
guint64       ds_line_reader_line   (const DsLineReader *reader);
void          ds_line_reader_free   (DsLineReader  *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsLineReader, ds_line_reader_free)

G_END_DECLS
