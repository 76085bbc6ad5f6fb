/* ds-bench-file.c: HD Tune's File Benchmark
 *
 * Runs on a filesystem, through a test file of its own in the folder given
 * (default: the current one; io/ds-test-file.c makes it, nameless).  Its
 * size is --size (1 GiB) clamped to the free space minus a margin.
 * It is fully written with incompressible data before anything is read (reads
 * of holes or unwritten extents measure nothing), then: sequential read and
 * write (8 MB blocks), random 4 KB read and write at queue depth 1 and 32
 * (IOPS), and the block size test (ds-bench-block-size.c) on the file.
 *
 * O_DIRECT throughout; a filesystem that refuses it gives a clear error, and
 * with --buffered (spec->buffered) the run goes through the page cache there
 * instead (noted, with a warning in the report: those figures are the
 * cache's as much as the disk's).  Where O_DIRECT works it is always used.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-bench.h"
#include "ds-bench-block-size.h"
#include "ds-bench-file.h"
#include "ds-clock.h"
#include "ds-device.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-text.h"
#include "ds-run.h"
#include "ds-test-file.h"
#include "ds-limits.h"
#include "ds-params.h"
#include "ds-units.h"
#include "ds-result.h"

/* Of the run's progress: the fill, the six rows, the block size test. */
#define PROGRESS_FILL  0.15
#define PROGRESS_ROWS  0.45

#define MAX_BYTES_PER_S 1e15
#define MAX_IOPS        1e12

static gpointer
file_data_new (void)
{
  DsFileData *data = g_new0 (DsFileData, 1);

  data->sequential_read_bytes_per_s = -1;
  data->sequential_write_bytes_per_s = -1;
  data->random_read_iops = -1;
  data->random_write_iops = -1;
  data->random_read_qd32_iops = -1;
  data->random_write_qd32_iops = -1;
  data->block_size = g_array_new (FALSE, TRUE, sizeof (DsBlockSizeRow));
  ds_block_size_rows_init (data->block_size);

  return data;
}

static void
file_data_free (gpointer p)
{
  DsFileData *data = p;

  if (data == NULL)
    return;

  g_free (data->directory);
  g_clear_pointer (&data->block_size, g_array_unref);
  g_free (data);
}

/* ---- the test file ------------------------------------------------------ */

/* ---- running ------------------------------------------------------------ */

typedef struct {
  const char *name;
  gboolean    write;
  gboolean    random;
  unsigned    depth;
  double     *ret_value;     /* bytes/s (sequential) or IOPS (random) */
} FileRow;

static gboolean
run_row (DsRun          *run,
         const FileRow  *row,
         unsigned        index,
         uint64_t        file_bytes,
         uint64_t        row_ns,
         GError        **error)
{
  uint32_t lbs = run->target->logical_block_size;
  DsIoPlan plan = {
    .random = row->random,
    .wrap = TRUE,
    .read_percent = row->write ? 0 : 100,
    .start_bytes = 0,
    .span_bytes = file_bytes,
    .block_bytes = row->random ? MAX ((uint64_t) DS_FILE_RANDOM_BYTES, lbs)
                               : MIN ((uint64_t) DS_FILE_SEQUENTIAL_BYTES, file_bytes),
    .align_bytes = run->spec->random_align_bytes,
    .depth = row->depth,
    .threads = 1,
    .duration_ns = row_ns,
    /* Sequential rows: the file once at most, as HD Tune does. */
    .max_bytes = row->random ? 0 : file_bytes,
  };
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .write = row->write, .index = index, .name = row->name };
  const DsIoDirStats *dir;
  DsIoStats stats;
  gboolean forced_auto = FALSE;
  double seconds;
  int ret;

  /* An engine named on the command line that cannot queue (sync) would
   * refuse the queue depth 32 rows: those run on what auto picks. */
  if (!run->engine_auto && run->engine != NULL &&
      row->depth > run->engine->max_depth && !run->engine->fan_out)
    {
      ds_result_add_note (run->result,
                          _("the %s engine cannot queue I/O: the queue depth %u "
                          "rows ran on the engine auto picks"), run->engine->name,
                          row->depth);
      run->engine_auto = TRUE;
      forced_auto = TRUE;
    }

  ds_run_emit (run, &phase);
  ret = ds_run_io (run, &plan, &stats, error);
  if (forced_auto)
    run->engine_auto = FALSE;

  dir = row->write ? &stats.write : &stats.read;
  seconds = (double) stats.elapsed_ns / DS_NS_PER_SEC;
  if (dir->ios > 0 && seconds > 0)
    *row->ret_value = row->random ? dir->ios / seconds : dir->bytes / seconds;
  ds_io_stats_clear (&stats);
  if (ret < 0)
    return FALSE;

  {
    DsSample sample = {
      .kind = DS_SAMPLE_ROW,
      .write = row->write,
      .index = index,
      .name = row->name,
      .value = *row->ret_value,
    };
    ds_run_emit (run, &sample);
  }

  return TRUE;
}

static gboolean
run_on_file (DsRun       *run,
             DsFileData  *data,
             GError     **error)
{
  const DsBenchSpec *spec = run->spec;
  uint64_t row_ns = spec->duration_ns != 0 ? spec->duration_ns : DS_FILE_DEFAULT_ROW_NS;
  uint64_t block_row_ns = spec->duration_ns != 0 ? spec->duration_ns : DS_FILE_DEFAULT_BLOCK_ROW_NS;
  const FileRow rows[] = {
    { "sequential_read", FALSE, FALSE, 1, &data->sequential_read_bytes_per_s },
    { "sequential_write", TRUE, FALSE, 1, &data->sequential_write_bytes_per_s },
    { "random_read", FALSE, TRUE, 1, &data->random_read_iops },
    { "random_write", TRUE, TRUE, 1, &data->random_write_iops },
    { "random_read_qd32", FALSE, TRUE, DS_FILE_QUEUE_DEPTH, &data->random_read_qd32_iops },
    { "random_write_qd32", TRUE, TRUE, DS_FILE_QUEUE_DEPTH, &data->random_write_qd32_iops },
  };

  ds_run_set_progress (run, 0.0);
  if (!ds_run_fill (run, data->file_bytes, error))
    return FALSE;

  for (unsigned i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      if (ds_run_check_cancelled (run, error) < 0)
        return FALSE;
      ds_run_set_progress (run, PROGRESS_FILL + PROGRESS_ROWS * i / G_N_ELEMENTS (rows));
      if (!run_row (run, &rows[i], i, data->file_bytes, row_ns, error))
        return FALSE;
    }

  /* ds_block_size_sweep still answers both ways (ds-error.h): its GError. */
  return ds_block_size_sweep (run, data->block_size, data->file_bytes, TRUE, TRUE,
                              block_row_ns, PROGRESS_FILL + PROGRESS_ROWS, 1.0, error) == 0;
}

static gboolean
file_run (DsRun   *run,
          GError **error)
{
  const DsBenchSpec *spec = run->spec;
  uint64_t size_bytes = ds_file_options_const (spec)->size_bytes;
  DsFileData *data = run->result->data;
  const char *dir = spec->target_path != NULL && spec->target_path[0] != '\0' ?
                    spec->target_path : ".";
  DsTestFileRequest request = {
    .what = _("the file benchmark"),
    .want_bytes = size_bytes != 0 ? size_bytes : UINT64_C (1) << 30,
    .min_bytes = DS_FILE_MIN_BYTES,
    .buffered_ok = spec->buffered,
  };
  g_autoptr (DsTarget) target = NULL;
  DsTestFileInfo info;
  DsTarget *saved_target;
  gboolean ok;

  data->directory = g_strdup (dir);

  target = ds_test_file_open (run, dir, &request, &info, error);
  if (target == NULL)
    return FALSE;
  data->file_bytes = info.file_bytes;
  data->tmpfile = info.tmpfile;
  data->buffered = info.buffered;

  saved_target = run->target;
  run->target = target;
  ok = run_on_file (run, data, error);
  run->target = saved_target;

  /* ds_target_free closes the descriptor: the nameless file is gone. */
  if (ok)
    return TRUE;
  return ds_run_ok (run, ds_test_file_wrap_error (run->error_errno != 0 ? -run->error_errno : -EIO,
                                                  error, dir, info.file_bytes),
                    error);
}

/* ---- JSON --------------------------------------------------------------- */

static JsonNode *
figure_node (double value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  if (value < 0)
    json_node_init_null (node);
  else
    json_node_set_double (node, value);

  return node;
}

static JsonNode *
file_to_json (const DsResult *result)
{
  const DsFileData *data = result->data;
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (o, "directory", data->directory ? data->directory : "");
  json_object_set_int_member (o, "file_bytes", (gint64) data->file_bytes);
  json_object_set_boolean_member (o, "buffered", data->buffered);
  json_object_set_boolean_member (o, "tmpfile", data->tmpfile);
  json_object_set_member (o, "sequential_read_bytes_per_s", figure_node (data->sequential_read_bytes_per_s));
  json_object_set_member (o, "sequential_write_bytes_per_s", figure_node (data->sequential_write_bytes_per_s));
  json_object_set_member (o, "random_read_iops", figure_node (data->random_read_iops));
  json_object_set_member (o, "random_write_iops", figure_node (data->random_write_iops));
  json_object_set_member (o, "random_read_qd32_iops", figure_node (data->random_read_qd32_iops));
  json_object_set_member (o, "random_write_qd32_iops", figure_node (data->random_write_qd32_iops));
  json_object_set_member (o, "block_size", ds_block_size_rows_to_json (data->block_size));
  json_node_take_object (node, o);

  return node;
}

static gboolean
figure_from_json (JsonObject  *o,
                  const char  *member,
                  double       max,
                  double      *ret_value,
                  GError     **error)
{
  JsonNode *node = json_object_get_member (o, member);

  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    {
      *ret_value = -1;
      return TRUE;
    }

  return ds_json_get_double (o, "results", member, 0, max, ret_value, error);
}

static gboolean
bool_from_json (JsonObject  *o,
                const char  *member,
                gboolean    *ret_value,
                GError     **error)
{
  JsonNode *node = json_object_get_member (o, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("results.%s is missing or not true or false"), member);
      return FALSE;
    }
  *ret_value = json_node_get_boolean (node);

  return TRUE;
}

static gpointer
file_from_json (JsonObject  *o,
                GError     **error)
{
  DsFileData *data = file_data_new ();
  const char *directory;
  JsonArray *array;
  GArray *rows;


  directory = ds_json_get_string (o, "results", "directory", FALSE, error);
  if (directory == NULL)
    goto fail;
  data->directory = g_strdup (directory);

  if (!ds_json_get_uint64 (o, "results", "file_bytes", G_MAXINT64, &data->file_bytes, error) ||
      !bool_from_json (o, "buffered", &data->buffered, error) ||
      !bool_from_json (o, "tmpfile", &data->tmpfile, error) ||
      !figure_from_json (o, "sequential_read_bytes_per_s", MAX_BYTES_PER_S,
                         &data->sequential_read_bytes_per_s, error) ||
      !figure_from_json (o, "sequential_write_bytes_per_s", MAX_BYTES_PER_S,
                         &data->sequential_write_bytes_per_s, error) ||
      !figure_from_json (o, "random_read_iops", MAX_IOPS, &data->random_read_iops, error) ||
      !figure_from_json (o, "random_write_iops", MAX_IOPS, &data->random_write_iops, error) ||
      !figure_from_json (o, "random_read_qd32_iops", MAX_IOPS, &data->random_read_qd32_iops, error) ||
      !figure_from_json (o, "random_write_qd32_iops", MAX_IOPS, &data->random_write_qd32_iops, error))
    goto fail;

  array = ds_json_get_array (o, "results", "block_size", error);
  if (array == NULL)
    goto fail;
  rows = ds_block_size_rows_from_json (array, "results.block_size", error);
  if (rows == NULL)
    goto fail;
  g_array_unref (data->block_size);
  data->block_size = rows;

  return data;

fail:
  file_data_free (data);
  return NULL;
}

/* ---- the report --------------------------------------------------------- */

#define REPORT_FIRST_WIDTH 38
#define REPORT_CELL_WIDTH  14

static void
report_figure (GString    *out,
               const char *label,
               double      value,
               gboolean    iops,
               DsUnits     units)
{
  g_autofree char *text = NULL;
  const char *cells[2];

  if (value < 0)
    text = g_strdup ("–");
  else if (iops)
    text = g_strdup_printf ("%.0f IOPS", value);
  else
    text = ds_format_rate (value, units);

  cells[0] = label;
  cells[1] = text;
  ds_report_row (out, cells, 2, REPORT_FIRST_WIDTH, REPORT_CELL_WIDTH);
}

static void
file_report (const DsResult *result,
             DsUnits         units,
             GString        *out)
{
  const DsFileData *data = result->data;
  /* Typed in powers of 1024 (--size 1G): echoed so, with the decimal. */
  g_autofree char *size = ds_format_size_both (data->file_bytes);
  g_autofree char *folder = ds_text_sanitize (data->directory ? data->directory : "?");

  G_STATIC_ASSERT (DS_FILE_RANDOM_BYTES == 4096);
  g_string_append_printf (out, "Folder: %s\n\n", folder);
  if (data->buffered)
    g_string_append (out, "Warning: buffered run (no direct I/O): these figures "
                          "include the page cache\n\n");

  g_string_append (out, "Transfer rate test\n\n");
  g_string_append_printf (out, "File Size: %s\n\n", size);
  report_figure (out, "Sequential read", data->sequential_read_bytes_per_s, FALSE, units);
  report_figure (out, "Sequential write", data->sequential_write_bytes_per_s, FALSE, units);
  /* The random rows name their transfer size, as the window's do. */
  report_figure (out, "Random 4 KB read", data->random_read_iops, TRUE, units);
  report_figure (out, "Random 4 KB write", data->random_write_iops, TRUE, units);
  report_figure (out, "Random 4 KB read (queue depth = 32)", data->random_read_qd32_iops, TRUE, units);
  report_figure (out, "Random 4 KB write (queue depth = 32)", data->random_write_qd32_iops, TRUE, units);

  g_string_append (out, "\nBlock size test\n\n");
  g_string_append_printf (out, "File Size: %s\n\n", size);
  ds_block_size_rows_report (data->block_size, TRUE, units, out);
}

static unsigned
file_params (const DsBenchSpec *spec)
{
  return DS_PARAM_ACCURACY | DS_PARAM_BUFFERED | DS_PARAM_ROW_TIME (spec);
}

static gpointer
file_options_new (void)
{
  DsFileOptions *o = g_new0 (DsFileOptions, 1);

  o->size_bytes = UINT64_C (1) << 30;
  return o;
}

DsFileOptions *
ds_file_options (DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_FILE, NULL);

  return spec->options;
}

const DsFileOptions *
ds_file_options_const (const DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_FILE, NULL);

  return spec->options;
}

static uint64_t *
file_size (DsBenchSpec *spec)
{
  return &ds_file_options (spec)->size_bytes;
}

static const char *const file_params_members[] = { "file_size_bytes", NULL };

static void
file_params_to_json (const DsBenchSpec *spec,
                     JsonObject        *params)
{
  json_object_set_int_member (params, "file_size_bytes",
                              (gint64) ds_file_options_const (spec)->size_bytes);
}

/* A file without the member has the default size (ds_params_fill()'s
 * rule for every member). */
static gboolean
file_params_from_json (JsonObject   *params,
                       DsBenchSpec  *spec,
                       GError      **error)
{
  return !json_object_has_member (params, "file_size_bytes") ||
         ds_json_get_uint64 (params, "params", "file_size_bytes", G_MAXINT64,
                             &ds_file_options (spec)->size_bytes, error);
}

static gboolean
file_validate (const DsBenchSpec  *spec,
               GError            **error)
{
  uint64_t size_bytes = ds_file_options_const (spec)->size_bytes;
  g_autofree char *given = NULL;

  if (size_bytes >= DS_LIMIT_FILE_SIZE_MIN_BYTES)
    return TRUE;

  given = ds_bench_describe_bytes (size_bytes);
  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("the test file must be at least 16 MiB (the block size test "
               "reads two 8 MiB blocks), not %s"), given);
  return FALSE;
}

/* The file tested: the size asked for, clamped to the free space. */
static void
file_settings (const DsBenchSpec *spec,
               const DsResult    *result,
               GPtrArray         *parts)
{
  const DsFileData *data = result != NULL ? result->data : NULL;
  uint64_t asked_bytes = ds_file_options_const (spec)->size_bytes;
  uint64_t bytes = data != NULL && data->file_bytes > 0 ? data->file_bytes : asked_bytes;
  g_autofree char *size = ds_format_size_iec (bytes);

  if (bytes < asked_bytes)
    {
      g_autofree char *asked = ds_format_size_iec (asked_bytes);

      /* Translators: "test file 897 MiB (1 GiB asked: the free space)" */
      g_ptr_array_add (parts, g_strdup_printf (_("test file %s (%s asked: the free space)"),
                                               size, asked));
    }
  else
    g_ptr_array_add (parts, g_strdup_printf (_("test file %s"), size));
  if (spec->buffered)
    g_ptr_array_add (parts, g_strdup (_("through the page cache")));
}

static char *
file_duration_help (void)
{
  return g_strdup_printf (_("Time per row (default %us, %us per block size; 250ms at --accuracy 1)"),
                          (unsigned) (DS_FILE_DEFAULT_ROW_NS / DS_NS_PER_SEC),
                          (unsigned) (DS_FILE_DEFAULT_BLOCK_ROW_NS / DS_NS_PER_SEC));
}

/* The file tested (the size asked for, clamped to the free space). */
static char *
file_describe (const DsResult *result)
{
  const DsBenchSpec *spec = &result->spec;
  const DsFileData *data = result->data;
  g_autofree char *size = ds_format_size (data != NULL && data->file_bytes > 0 ?
                                          data->file_bytes :
                                          ds_file_options_const (spec)->size_bytes);

  return g_strdup_printf ("%s test file%s", size, spec->buffered ? ", buffered" : "");
}

const DsBenchOps ds_bench_file = {
  .kind = DS_BENCH_FILE,
  .name = "file",
  .title = "File Benchmark",
  .opens_target = FALSE,
  .data_new = file_data_new,
  .data_free = file_data_free,
  .run = file_run,
  .to_json = file_to_json,
  .from_json = file_from_json,
  .report = file_report,
  .writes = DS_BENCH_WRITES_OWN_FILE,
  .cli_options = DS_BENCH_CLI_ACCURACY | DS_BENCH_CLI_BUFFERED,
  .spec_flags = DS_BENCH_SPEC_ROWS_ACCURACY | DS_BENCH_SPEC_FOLDER,
  .options_size = sizeof (DsFileOptions),
  .options_new = file_options_new,
  .validate = file_validate,
  .params = file_params,
  .params_to_json = file_params_to_json,
  .params_from_json = file_params_from_json,
  .params_members = file_params_members,
  .file_size = file_size,
  .random_offsets = ds_bench_random_offsets_always,
  .settings = file_settings,
  .duration_help = file_duration_help,
  .describe = file_describe,
  .compare_rows = ds_file_compare_rows,
  .fio_job = ds_file_fio_job,
};
