/* ds-cli-library.h: the results library from the command line (shared by
 * the run, results, compare and fio commands)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "ds-library.h"
#include "ds-result.h"

G_BEGIN_DECLS

/* The environment variable that points every command at another library
 * folder (a team's shared one); --results-dir wins over it. */
#define DS_CLI_RESULTS_DIR_ENV "DISKSCOPE_RESULTS_DIR"

/* --results-dir, else $DISKSCOPE_RESULTS_DIR, else the default folder. */
char      *ds_cli_results_dir      (const char  *option);

/* The library at ds_cli_results_dir (@option), read. */
DsLibrary *ds_cli_library_open     (const char  *option,
                                    GError     **error);

/* A result named on the command line: a file when @arg is one, else a
 * library id (or a unique part of one) in *@library, opened on first use
 * from @dir_option.  *@ret_source gets what to call it in tables: the id,
 * or the path as given. */
DsResult  *ds_cli_load_result      (const char  *arg,
                                    const char  *dir_option,
                                    DsLibrary  **library,
                                    char       **ret_source,
                                    GError     **error);

/* The file the result @arg names was read from (after
 * ds_cli_load_result()): @arg itself when it is a path, else the file of
 * its entry in @library.  What a command's output must not replace. */
char      *ds_cli_result_file      (const char  *arg,
                                    DsLibrary   *library);

/* After a run: saves @result in the library unless @skip (--no-library) or
 * nothing was measured; says where on stderr when it is a terminal, and
 * why not (always) when saving failed.  Never changes the exit status:
 * the result was printed. */
void       ds_cli_library_save_run (const DsResult *result,
                                    gboolean        skip);

/* Adds @item (one of the list ds_cli_print_library_json() prints) to @b. */
typedef void (*DsCliJsonItemFunc) (JsonBuilder *b,
                                   gpointer     item);

/* Prints, on stdout, {"schema": @schema, "dir": @library's folder,
 * @member: [each of @items, as @add makes it]}: `results list --json`
 * and `results history --json`. */
void       ds_cli_print_library_json (DsLibrary         *library,
                                      const char        *schema,
                                      const char        *member,
                                      GPtrArray         *items,
                                      DsCliJsonItemFunc  add);

/* @text, made printable, padded with spaces to @width characters, on
 * stdout: a cell of the results commands' tables. */
void       ds_cli_print_cell         (const char *text,
                                      glong       width);

/* `results [list]` (ds-cli-results-list.c): the results of @library, only
 * those of @kind, with @tag and matching @search where given (NULL: any),
 * as a table or @json. */
int        ds_cli_results_list       (DsLibrary  *library,
                                      const char *kind,
                                      const char *tag,
                                      const char *search,
                                      gboolean    json);

/* `results history [DEVICE]` (ds-cli-history.c): the devices, or each
 * kind's headline figure of one device over time. */
int        ds_cli_results_history  (DsLibrary      *library,
                                    const char     *device,
                                    gboolean        json,
                                    const char     *units);

G_END_DECLS
