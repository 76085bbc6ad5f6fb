/* ds-run-target.c: the run's target: opened through the safety gate, the
 * spec checked against its size, a --create test file made and filled
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-clock.h"
#include "ds-device.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-run.h"
#include "ds-units.h"

/* The fill writes in 8 MiB blocks, one at a time: sequential and large
 * enough for any device's full speed, small enough to stop quickly. */
#define FILL_BLOCK_BYTES (UINT64_C (8) << 20)

void
ds_run_describe_target (DsRun          *run,
                        const DsTarget *target)
{
  DsTargetInfo *info = &run->result->target;

  ds_target_info_clear (info);
  info->path = g_strdup (target->path);
  info->is_block = target->kind == DS_TARGET_BLOCK;
  info->size_bytes = target->size_bytes;
  info->model = g_strdup (target->model);
  info->serial = g_strdup (target->serial);
  info->wwn = g_strdup (target->wwn);
  info->logical_block_size = target->logical_block_size;
  info->physical_block_size = target->physical_block_size;
  info->rotational = target->rotational;
}

/* Writes [@start, @start + @span) sequentially in blocks of @block. */
static gboolean
fill_region (DsRun     *run,
             uint64_t   start,
             uint64_t   span,
             uint64_t   block,
             GError   **error)
{
  DsIoPlan plan = {
    .random = FALSE,
    .read_percent = 0,
    .start_bytes = start,
    .span_bytes = span,
    .block_bytes = block,
    .depth = 1,
    .threads = 1,
    .max_bytes = span,
  };
  DsIoStats stats;
  int r;

  r = ds_run_io (run, &plan, &stats, error);
  ds_io_stats_clear (&stats);

  return r == 0;
}

gboolean
ds_run_fill (DsRun     *run,
             uint64_t   bytes,
             GError   **error)
{
  DsTarget *target = run->target;
  uint64_t whole = ds_align_down (bytes, FILL_BLOCK_BYTES);
  uint64_t tail = ds_align_down (bytes - whole, target->logical_block_size);
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .write = TRUE, .name = "fill" };

  target->size_bytes = bytes;

  /* Reserve the blocks first where the filesystem can: no room shows now,
   * before anything was measured, and the file is less fragmented.  The
   * extents stay unwritten until the fill below writes every byte (reads
   * of holes or unwritten extents would measure nothing). */
  if (fallocate (target->fd, 0, 0, (off_t) bytes) != 0 && errno != EOPNOTSUPP)
    {
      int e = errno;
      g_autofree char *size = ds_format_size (bytes);

      if (e == ENOSPC || e == EDQUOT)
        g_set_error (error, DS_ERROR, DS_ERROR_NO_SPACE,
                     _("no room for the %s test file at %s (%s): free some "
                     "space or ask for a smaller one"), size, target->path,
                     g_strerror (e));
      else
        ds_set_error_from_errno (error, e, target->path);
      return FALSE;
    }

  /* Whole 8 MiB blocks, then what is left in one block of its own. */
  ds_run_emit (run, &phase);
  if (whole > 0 && !fill_region (run, 0, whole, FILL_BLOCK_BYTES, error))
    return FALSE;
  if (tail > 0 && !fill_region (run, whole, tail, tail, error))
    return FALSE;

  /* The block mapping (unwritten -> written extents) on the disk too. */
  if (fdatasync (target->fd) != 0)
    {
      ds_set_error_from_errno (error, errno, target->path);
      return FALSE;
    }

  return TRUE;
}

static gboolean
is_busy_block (const char *path,
               GError     *error,
               dev_t      *ret_rdev)
{
  struct stat st;

  if (!g_error_matches (error, DS_ERROR, DS_ERROR_BUSY) ||
      stat (path, &st) != 0 || !S_ISBLK (st.st_mode))
    return FALSE;
  *ret_rdev = st.st_rdev;
  return TRUE;
}

/* Still busy after the wait: who has it open, or that no program does
 * (the kernel holds it: a filesystem mounted in another mount namespace,
 * a device-mapper or md array being set up). */
static void
name_holders (GError     *error,
              const char *path,
              dev_t       rdev,
              uint64_t    waited_ns)
{
  g_autofree char *openers = ds_block_device_openers (rdev);
  g_autofree char *message = NULL;

  if (openers != NULL)
    message = g_strdup_printf (_("%s is in use by another program: %s has it open "
                                 "(still after %.0f s). Stop it first"),
                               path, openers, (double) waited_ns / 1e9);
  else
    message = g_strdup_printf (_("%s is in use (opened exclusively, still after %.0f s), "
                                 "and no program has it open: the kernel holds it (a "
                                 "filesystem mounted in another mount namespace or "
                                 "container, or a device-mapper or RAID set over it)"),
                               path, (double) waited_ns / 1e9);
  g_free (error->message);
  error->message = g_steal_pointer (&message);
}

DsTarget *
ds_run_open_path (DsRun              *run,
                  const char         *path,
                  DsTargetOpenFlags   flags,
                  const char         *confirm,
                  GError            **error)
{
  uint64_t start_ns = ds_clock_ns ();
  uint64_t waited_ns = 0;
  gboolean noticed = FALSE;
  DsTarget *target;
  dev_t rdev = 0;

  for (;;)
    {
      g_autoptr (GError) local = NULL;

      target = ds_target_open_full (path, flags, confirm, &run->access, &local);
      waited_ns = ds_clock_ns () - start_ns;
      if (target != NULL || (flags & DS_TARGET_OPEN_WRITE) == 0 ||
          !is_busy_block (path, local, &rdev) || ds_run_cancelled (run))
        {
          if (target == NULL)
            g_propagate_error (error, g_steal_pointer (&local));
          break;
        }
      if (waited_ns >= DS_BUSY_WAIT_NS)
        {
          name_holders (local, path, rdev, waited_ns);
          g_propagate_error (error, g_steal_pointer (&local));
          break;
        }
      if (!noticed && waited_ns >= DS_BUSY_NOTICE_NS)
        {
          g_autofree char *openers = ds_block_device_openers (rdev);
          g_autofree char *text = NULL;
          DsSample notice = { .kind = DS_SAMPLE_NOTICE };

          /* udev's worker shows as systemd-udevd while it probes; a
           * partition rescan holds the disk with no process to name. */
          if (openers != NULL)
            text = g_strdup_printf (_("Waiting for %s: %s has it open exclusively; "
                                      "waiting up to %.0f s"),
                                    path, openers, (double) DS_BUSY_WAIT_NS / 1e9);
          else
            text = g_strdup_printf (_("Waiting for %s: it is held exclusively (udev's "
                                      "probe after the last write, most likely); waiting "
                                      "up to %.0f s"),
                                    path, (double) DS_BUSY_WAIT_NS / 1e9);
          notice.name = text;
          ds_run_emit (run, &notice);
          noticed = TRUE;
        }
      g_usleep (DS_BUSY_POLL_NS / 1000);
    }

  if (noticed)
    {
      DsSample over = { .kind = DS_SAMPLE_NOTICE };

      ds_run_emit (run, &over);
    }
  if (target != NULL && noticed)
    ds_result_add_note (run->result,
                        _("Waited %.2f s for %s to be free: it was held exclusively "
                        "by another program (udev's probe after a previous write, "
                        "most likely)"), (double) waited_ns / 1e9, path);

  return target;
}

gboolean
ds_run_open_target (DsRun   *run,
                    GError **error)
{
  DsResult *result = run->result;
  DsBenchSpec *spec = &result->spec;
  DsTargetOpenFlags flags = DS_TARGET_OPEN_READ;
  g_autoptr (DsTarget) target = NULL;
  uint64_t size;

  if (spec->create_bytes != 0)
    flags = DS_TARGET_OPEN_CREATE | (spec->keep ? DS_TARGET_OPEN_KEEP : 0);
  else if (spec->write)
    flags = DS_TARGET_OPEN_WRITE;
  /* A kind whose point is destroying the data (erase) may take what a
   * write test may not (a disk image, once named). */
  if (spec->write && ds_bench_get (spec->kind)->writes == DS_BENCH_WRITES_DESTROYS)
    flags |= DS_TARGET_OPEN_ERASE;

  target = ds_run_open_path (run, spec->target_path, flags, spec->destroy_data, error);
  if (target == NULL)
    {
      struct stat st;

      /* Name what was asked for, even when it could not be opened. */
      result->target.path = g_strdup (spec->target_path);
      result->target.is_block = stat (spec->target_path, &st) == 0 && S_ISBLK (st.st_mode);
      return FALSE;
    }

  size = target->created ? spec->create_bytes : target->size_bytes;
  target->size_bytes = size;
  ds_run_describe_target (run, target);
  if (!ds_bench_spec_check_target (spec, target->path, size, target->logical_block_size, error))
    {
      /* A kept --create file that was never filled is not worth keeping. */
      if (target->created && spec->keep)
        unlink (target->path);
      return FALSE;
    }

  /* The gate lets a write to an existing target through only when the
   * user named it: this is the one place that is known. */
  spec->write_confirmed = (flags & DS_TARGET_OPEN_WRITE) != 0;

  run->target = g_steal_pointer (&target);
  if (run->target->created)
    {
      g_autofree char *size_text = ds_format_size (size);

      if (!ds_run_fill (run, size, error))
        {
          if (spec->keep)
            unlink (run->target->path);
          return FALSE;
        }
      ds_result_add_note (result,
                          _("%s is a test file Diskscope created for this run "
                          "(%s of random data, written before the test)%s"),
                          run->target->path, size_text,
                          spec->keep ? "; it was kept" : "; it is gone after the run");
    }

  return TRUE;
}
