/* ds-bench-file.c: HD Tune's File Benchmark
 *
 * Runs on a filesystem, through a test file of its own in the folder given
 * (default: the current one).  The file is created with O_TMPFILE where the
 * filesystem allows it (it has no name, so nothing is left behind however the
 * run ends, a crash or Ctrl-C included), else under a hidden unique name that
 * is unlinked right after the open (the same guarantee, one system call
 * later).  Its size is --size (1 GiB) clamped to the free space minus a margin.
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
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"

#define MIB (UINT64_C (1) << 20)

/* Free space left to the filesystem: 1 % of what is free, at least 4 MiB
 * (metadata, the extent tree of the test file) and at most 256 MiB. */
#define MARGIN_MIN_BYTES (4 * MIB)
#define MARGIN_MAX_BYTES (256 * MIB)

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

/* Opens a nameless file in @dir: O_TMPFILE, else a hidden unique name
 * unlinked at once.  Returns the fd or -errno (-EINVAL: O_DIRECT refused). */
static int
open_test_file (const char *dir,
                gboolean    direct,
                gboolean   *ret_tmpfile)
{
  int flags = O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0);
  int fd;

  fd = open (dir, O_TMPFILE | flags, 0600);
  if (fd >= 0)
    {
      *ret_tmpfile = TRUE;
      return fd;
    }
  /* EOPNOTSUPP: the filesystem has no O_TMPFILE; EISDIR: the kernel does
   * not know the flag.  Anything else (EINVAL for O_DIRECT, EACCES, EROFS,
   * ENOSPC) is the answer. */
  if (errno != EOPNOTSUPP && errno != EISDIR)
    return -errno;

  for (unsigned attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *path = g_strdup_printf ("%s/.diskscope-test-%d-%08x",
                                               dir, (int) getpid (), g_random_int ());

      fd = open (path, O_CREAT | O_EXCL | flags, 0600);
      if (fd >= 0)
        {
          /* No name from here on: nothing to clean up, ever. */
          unlink (path);
          *ret_tmpfile = FALSE;
          return fd;
        }
      if (errno == EEXIST)
        continue;
      if (errno == EINVAL)
        {
          /* The inode may exist already when only O_DIRECT failed (O_EXCL
           * made sure it is ours). */
          unlink (path);
          return -EINVAL;
        }
      return -errno;
    }

  return -EEXIST;
}

/* The O_DIRECT alignment of @fd (STATX_DIOALIGN, Linux 6.1), else the
 * filesystem block size capped to [512, 4096]. */
static void
set_alignment (DsTarget *target,
               gboolean  direct)
{
  struct stat st;

  target->logical_block_size = 4096;
  target->mem_align = 4096;
  if (fstat (target->fd, &st) == 0 && st.st_blksize >= 512 && st.st_blksize <= 4096 &&
      (st.st_blksize & (st.st_blksize - 1)) == 0)
    target->logical_block_size = (uint32_t) st.st_blksize;

#ifdef STATX_DIOALIGN
  {
    struct statx stx;

    if (direct &&
        statx (target->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
        (stx.stx_mask & STATX_DIOALIGN) &&
        stx.stx_dio_offset_align >= 1 &&
        (stx.stx_dio_offset_align & (stx.stx_dio_offset_align - 1)) == 0 &&
        stx.stx_dio_mem_align >= 1 &&
        (stx.stx_dio_mem_align & (stx.stx_dio_mem_align - 1)) == 0)
      {
        target->logical_block_size = MAX (stx.stx_dio_offset_align, 512u);
        target->mem_align = MAX (stx.stx_dio_mem_align, 512u);
      }
  }
#endif

  /* Through the page cache any size goes: HD Tune's 0.5 KB row included. */
  if (!direct)
    target->logical_block_size = 512;
  target->physical_block_size = target->logical_block_size;
}

/* Fills in what the report's header and the JSON "target" say: the folder,
 * and where known the filesystem's device and its model. */
static void
describe_filesystem (DsResult            *result,
                     const char          *dir,
                     const struct statvfs *vfs)
{
  struct stat st;

  ds_target_info_clear (&result->target);
  result->target.path = g_strdup (dir);
  result->target.is_block = FALSE;
  result->target.size_bytes = (uint64_t) vfs->f_blocks * vfs->f_frsize;

  if (stat (dir, &st) == 0)
    {
      g_autofree char *link = g_strdup_printf ("/sys/dev/block/%u:%u",
                                               major (st.st_dev), minor (st.st_dev));
      g_autofree char *target = g_file_read_link (link, NULL);

      if (target != NULL)
        {
          g_autofree char *name = g_path_get_basename (target);
          g_autofree char *dev = g_strdup_printf ("/dev/%s", name);
          g_autoptr (DsDevice) device = ds_device_lookup (dev, NULL);

          if (device != NULL && device->model != NULL)
            result->target.model = g_strdup_printf ("%s (%s)", device->model, dev);
          else
            result->target.model = g_steal_pointer (&dev);
        }
    }
}

/* ---- running ------------------------------------------------------------ */

static int
rewrap_error (int          ret,
              GError     **error,
              const char  *dir,
              uint64_t     file_bytes)
{
  if (error == NULL || *error == NULL)
    return ret;

  if (ret == -ENOSPC)
    {
      g_autofree char *size = ds_format_size (file_bytes);
      g_autofree char *old = g_strdup ((*error)->message);

      g_clear_error (error);
      g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                   "the filesystem at %s ran out of space for the %s test "
                   "file (%s); free some space or give a smaller --size",
                   dir, size, old);
    }
  else if (ret == -EINVAL && !g_error_matches (*error, DS_ERROR, DS_ERROR_INVALID))
    {
      g_autofree char *old = g_strdup ((*error)->message);

      g_clear_error (error);
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   "the filesystem at %s refused a direct I/O transfer (%s); "
                   "--buffered runs anyway, through the page cache", dir, old);
    }

  return ret;
}

typedef struct {
  const char *name;
  gboolean    write;
  gboolean    random;
  unsigned    depth;
  double     *ret_value;     /* bytes/s (sequential) or IOPS (random) */
} FileRow;

static int
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
                          "the %s engine cannot queue I/O: the queue depth %u "
                          "rows ran on the engine auto picks", run->engine->name,
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
    return ret;

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

  return 0;
}

static int
fill_file (DsRun    *run,
           uint64_t  file_bytes,
           GError  **error)
{
  DsIoPlan plan = {
    .random = FALSE,
    .read_percent = 0,
    .start_bytes = 0,
    .span_bytes = file_bytes,
    .block_bytes = MIN ((uint64_t) DS_FILE_SEQUENTIAL_BYTES, file_bytes),
    .depth = 1,
    .threads = 1,
    .max_bytes = file_bytes,
  };
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .write = TRUE, .name = "fill" };
  DsIoStats stats;
  int ret;

  /* Reserve the blocks first where the filesystem can: ENOSPC comes now,
   * before anything was measured, and the file is less fragmented.  The
   * extents stay unwritten until the fill below writes every byte. */
  if (fallocate (run->target->fd, 0, 0, (off_t) file_bytes) != 0)
    {
      int e = errno;

      if (e == ENOSPC || e == EDQUOT)
        return -ENOSPC;
      if (e == EIO)
        {
          ds_set_error_from_errno (error, e, run->target->path);
          return -e;
        }
      /* EOPNOTSUPP and friends: the writes will allocate. */
    }

  ds_run_emit (run, &phase);
  ret = ds_run_io (run, &plan, &stats, error);
  ds_io_stats_clear (&stats);
  if (ret < 0)
    return ret;

  /* The block mapping (unwritten -> written extents) on the disk too. */
  if (fdatasync (run->target->fd) != 0)
    {
      int e = errno;

      ds_set_error_from_errno (error, e, run->target->path);
      return -e;
    }

  return 0;
}

static int
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
  int ret;

  ds_run_set_progress (run, 0.0);
  ret = fill_file (run, data->file_bytes, error);
  if (ret == -ENOSPC && (error == NULL || *error == NULL))
    {
      g_autofree char *size = ds_format_size (data->file_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                   "the filesystem at %s has no room for the %s test file "
                   "(No space left on device); free some space or give a "
                   "smaller --size", data->directory, size);
      return ret;
    }
  if (ret < 0)
    return ret;

  for (unsigned i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      if (ds_run_check_cancelled (run, error) < 0)
        return -ECANCELED;
      ds_run_set_progress (run, PROGRESS_FILL + PROGRESS_ROWS * i / G_N_ELEMENTS (rows));
      ret = run_row (run, &rows[i], i, data->file_bytes, row_ns, error);
      if (ret < 0)
        return ret;
    }

  return ds_block_size_sweep (run, data->block_size, data->file_bytes, TRUE, TRUE,
                              block_row_ns, PROGRESS_FILL + PROGRESS_ROWS, 1.0, error);
}

static int
file_run (DsRun   *run,
          GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsFileData *data = run->result->data;
  const char *dir = spec->target_path != NULL && spec->target_path[0] != '\0' ?
                    spec->target_path : ".";
  uint64_t want = spec->file_size_bytes != 0 ? spec->file_size_bytes : UINT64_C (1) << 30;
  gboolean direct = TRUE;
  g_autoptr (DsTarget) target = NULL;
  DsTarget *saved_target;
  struct statvfs vfs;
  struct stat st;
  uint64_t free_bytes;
  uint64_t margin;
  uint64_t size;
  int fd;
  int ret;

  data->directory = g_strdup (dir);

  if (stat (dir, &st) != 0)
    {
      int e = errno;

      ds_set_error_from_errno (error, e, dir);
      return -e;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "%s is not a folder: the file benchmark runs in a folder "
                   "of the filesystem to test", dir);
      return -ENOTDIR;
    }
  if (want < DS_FILE_MIN_BYTES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "the test file must be at least 16M (the block size test "
                   "reads 8 MB blocks)");
      return -EINVAL;
    }
  if (statvfs (dir, &vfs) != 0)
    {
      int e = errno;

      ds_set_error_from_errno (error, e, dir);
      return -e;
    }
  describe_filesystem (run->result, dir, &vfs);

  /* What this user may allocate, less a margin for the filesystem. */
  free_bytes = (uint64_t) vfs.f_bavail * vfs.f_frsize;
  margin = CLAMP (free_bytes / 100, MARGIN_MIN_BYTES, MARGIN_MAX_BYTES);
  size = MIN (want, free_bytes > margin ? free_bytes - margin : 0);
  size = ds_align_down (size, MIB);
  if (size < DS_FILE_MIN_BYTES)
    {
      g_autofree char *free_text = ds_format_size (free_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                   "not enough free space at %s for the file benchmark: %s "
                   "free, it needs at least 16 MiB plus %" G_GUINT64_FORMAT
                   " MiB for the filesystem", dir, free_text, margin / MIB);
      return -ENOSPC;
    }
  if (size < want)
    {
      g_autofree char *want_text = ds_format_size (want);
      g_autofree char *size_text = ds_format_size (size);
      g_autofree char *free_text = ds_format_size (free_bytes);

      ds_result_add_note (run->result,
                          "the test file is %s, not %s: %s is free at %s",
                          size_text, want_text, free_text, dir);
    }
  data->file_bytes = size;

  fd = open_test_file (dir, TRUE, &data->tmpfile);
  if (fd == -EINVAL)
    {
      /* EINVAL from an open that asks O_DIRECT: is it the O_DIRECT? */
      gboolean tmpfile;
      int probe = open_test_file (dir, FALSE, &tmpfile);

      if (probe >= 0 && !spec->buffered)
        {
          close (probe);
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       "the filesystem at %s does not support direct I/O; "
                       "--buffered runs anyway, through the page cache", dir);
          return -EINVAL;
        }
      fd = probe;
      data->tmpfile = tmpfile;
      direct = FALSE;
    }
  if (fd < 0)
    {
      int e = -fd;

      if (e == ENOSPC || e == EDQUOT)
        g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                     "no room for a test file at %s (%s)", dir, g_strerror (e));
      else if (e == EACCES || e == EPERM)
        g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
                     "cannot create a test file in %s (%s): pick a folder you "
                     "can write to", dir, g_strerror (e));
      else if (e == EROFS)
        g_set_error (error, DS_ERROR, DS_ERROR_REFUSED,
                     "%s is on a read-only filesystem: the file benchmark "
                     "writes a test file", dir);
      else
        g_set_error (error, DS_ERROR, ds_error_from_errno (e),
                     "cannot create a test file in %s: %s", dir, g_strerror (e));
      return fd;
    }

  data->buffered = !direct;
  if (data->buffered)
    ds_result_add_note (run->result,
                        "buffered: the file was read and written through the "
                        "page cache, so the figures are the cache's as much "
                        "as the disk's");

  target = g_new0 (DsTarget, 1);
  target->path = g_strdup_printf ("the test file in %s", dir);
  target->fd = fd;
  target->kind = DS_TARGET_FILE;
  target->writable = TRUE;
  target->direct = direct;
  target->size_bytes = size;
  set_alignment (target, direct);

  saved_target = run->target;
  run->target = target;
  ret = run_on_file (run, data, error);
  run->target = saved_target;

  if (ret < 0)
    rewrap_error (ret, error, dir, size);

  /* ds_target_free closes the descriptor: the nameless file is gone. */
  return ret;
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
                   "results.%s is missing or not true or false", member);
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

  G_STATIC_ASSERT (DS_FILE_RANDOM_BYTES == 4096);
  g_string_append_printf (out, "Folder: %s\n\n", data->directory ? data->directory : "?");
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
};
