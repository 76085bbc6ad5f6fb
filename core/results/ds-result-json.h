/* ds-result-json.h: results as JSON (schema diskscope-result/1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing: ds-result-json.c.  Reading a tree: ds-result-read.c.  Reading
 * bytes and files: ds-result-load.c.  The JSON layer under them (strict
 * getters for the kinds, the writer, the bounds): ds-json.h.
 */
#pragma once

#include <gio/gio.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "ds-json.h"
#include "ds-result.h"

G_BEGIN_DECLS

JsonNode *ds_result_to_json   (const DsResult  *result);
/* Pretty-printed, with a trailing newline; always loads again with
 * ds_result_load_data() (see ds_json_to_text()). */
char     *ds_result_to_data   (const DsResult  *result,
                               gsize           *ret_length);
/* Under ds-save.h's rules ("-" is stdout; only regular files are replaced,
 * atomically), and never over the result's own target. */
gboolean  ds_result_save      (const DsResult  *result,
                               const char      *path,
                               GError         **error);
/* ds_result_save(), and never over one of @inputs (NULL-terminated; NULL:
 * none), the files the result was read from. */
gboolean  ds_result_save_from (const DsResult     *result,
                               const char         *path,
                               const char *const  *inputs,
                               GError            **error);

/* Strict: a truncated file, not JSON, another schema, missing keys, wrong
 * types, absurd values or more than the DS_JSON_MAX_* bounds of
 * ds-limits.h give DS_ERROR_CORRUPT with what is wrong; never a crash.
 *
 * All four are safe to call from any thread, several at once: they keep
 * nothing between calls and touch no global state. */
DsResult *ds_result_from_json (JsonNode        *root,
                               GError         **error);
DsResult *ds_result_load_data (const char      *data,
                               gssize           length,
                               GError         **error);
/* @path must be a regular file of at most DS_JSON_MAX_FILE_BYTES: a FIFO,
 * a device, a folder or a larger file is refused (DS_ERROR_CORRUPT) before
 * a byte is read, and never more than the bound is read.  A missing file
 * is DS_ERROR_NOT_FOUND, an unreadable one DS_ERROR_PERMISSION.  Messages
 * start with @path (its control characters escaped). */
DsResult *ds_result_load      (const char      *path,
                               GError         **error);

typedef enum {
  DS_RESULT_LOAD_DEFAULT = 0,
  /* A file that is not a Diskscope result may be another program's
   * output that a kind reads as its result (DsBenchOps.from_foreign:
   * Health reads a saved `smartctl --json`): what the app's Open takes.
   * When it is neither, the message is the result loader's (or the
   * kind's, when the file is that program's but cannot be shown). */
  DS_RESULT_LOAD_FOREIGN = 1 << 0,
} DsResultLoadFlags;

/* ds_result_load(), reading other programs' outputs with
 * DS_RESULT_LOAD_FOREIGN: each file is read once whatever it is. */
DsResult *ds_result_load_full (const char        *path,
                               DsResultLoadFlags  flags,
                               GError           **error);
/* ds_result_load() (ds_result_load_full() with @flags) on a worker
 * thread: the one load of the app, whose main loop must not wait for a
 * large file.  @callback runs in the thread-default main context of the
 * caller; a cancelled load returns G_IO_ERROR_CANCELLED at once. */
void      ds_result_load_async  (const char          *path,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data);
void      ds_result_load_full_async (const char          *path,
                                     DsResultLoadFlags    flags,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
DsResult *ds_result_load_finish (GAsyncResult        *result,
                                 GError             **error);

G_END_DECLS
