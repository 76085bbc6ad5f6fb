/* ds-fio-export.c: a result as a fio job file that reproduces its run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The job says what our run did, in fio's words:
 *
 *   ours                          fio
 *   O_DIRECT, aligned buffers     direct=1
 *   fresh random data per write   refill_buffers=1
 *   uniform random offsets,       norandommap=1 (fio would otherwise visit
 *     repeats allowed               each block once per pass)
 *   random offsets on multiples   fio's default blockalign (the smallest
 *     of the block size, or of      block size), written out for a
 *     --align's bytes               workload, or blockalign=ALIGN
 *   io_uring, registered buffers  ioengine=io_uring fixedbufs=1
 *     and file                      registerfiles=1
 *   sync (pread/pwrite)           ioengine=psync
 *   threads (a pool of pread/     ioengine=psync, numjobs = threads x depth
 *     pwrite, one per slot)         at iodepth=1
 *   threads T, queue depth Q      numjobs=T iodepth=Q, group_reporting
 *   latency = submit..complete    lat_percentiles=1 (fio's total latency)
 *
 * Sizes are written in bytes and times in milliseconds, so nothing is
 * rounded by a unit.  The HD Tune kinds become one job per point or row,
 * one after another (stonewall), each limited like ours by its time and
 * its region.  Each kind writes its own job (DsBenchOps.fio_job, in
 * kinds/<kind>/ds-<kind>-fio.c, with results/ds-fio-job.h); a kind fio
 * cannot express says why (DS_ERROR_UNSUPPORTED).
 *
 * A result file is anyone's, and fio's job file has no quoting: fio reads
 * it with fgets() into a buffer of OPT_LEN_MAX (1024 bytes in old
 * versions, 4096 or 8192 since), so a longer line becomes two; strips
 * blanks; takes a line starting with ';' or '#' as a comment and cuts a
 * value at the first ';' or '#'; opens a section at '['; reads "include
 * FILE"; replaces ${VAR} with the environment and $pagesize and friends;
 * and splits filename= at ':' (unless escaped as "\:").  So the one value
 * from the result that is written as an option, the file to run on, must
 * be of a safe set (valid UTF-8 without control characters, none of
 * ; # $ = [ ] \, no blank at either end, short): else the export is
 * refused and the user told to pass --filename.  Everything else from the
 * result (model, path, host, time) only goes into comment lines, escaped
 * by ds_text_sanitize() (no newline can end the comment) and cut short.
 * Last, the job is read back as fio would read it (check_job()): only
 * our sections and options, every line shorter than fio's buffer.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-fio.h"
#include "ds-fio-job.h"
#include "ds-fio-private.h"
#include "ds-text.h"

char *
ds_fio_job_from_result (const DsResult  *result,
                        const char      *filename,
                        GError         **error)
{
  const DsBenchOps *ops;
  DsFioJobFile job;
  GString *out;
  g_autofree char *file_path = NULL;
  g_autofree char *why = NULL;
  gboolean from_result = FALSE;

  g_return_val_if_fail (result != NULL, NULL);

  ops = ds_bench_get (result->kind);
  if (ops == NULL || ops->fio_job == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("a %s result cannot be expressed as a fio job, because fio has no test of its kind"),
                   ops ? ops->name : "?");
      return NULL;
    }

  if (filename == NULL)
    {
      from_result = TRUE;
      filename = result->target.path;
    }
  if (filename == NULL || *filename == '\0')
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the result names no device or file to run on: give one (--filename)"));
      return NULL;
    }
  why = ds_fio_unsafe_in_filename (filename);
  if (why != NULL)
    {
      g_autofree char *shown = ds_text_sanitize_short (filename, 80);

      if (from_result)
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("the result's device or file “%s” holds %s, which an fio job file cannot "
                       "carry safely (fio would read it as more options): give the device or "
                       "file to run on with --filename"), shown, why);
      else
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("--filename “%s” holds %s, which an fio job file cannot carry safely: "
                       "use a path without it (a symlink to the device, for one)"), shown, why);
      return NULL;
    }
  /* fio splits filename= at ':' (several files): escape it. */
  if (strchr (filename, ':') != NULL)
    {
      g_auto (GStrv) parts = g_strsplit (filename, ":", -1);
      file_path = g_strjoinv ("\\:", parts);
      filename = file_path;
    }

  out = g_string_new (NULL);
  job = (DsFioJobFile) { .out = out, .filename = filename };
  if (!ops->fio_job (result, &job, error))
    {
      g_string_free (out, TRUE);
      return NULL;
    }

  return ds_fio_job_checked (out, error);
}

char *
ds_fio_command_line (const char *job_path,
                     const char *output_path)
{
  g_autofree char *job = g_shell_quote (job_path);
  g_autofree char *output = g_shell_quote (output_path ? output_path : "fio.json");

  return g_strdup_printf ("fio --output-format=json --output=%s %s", output, job);
}
