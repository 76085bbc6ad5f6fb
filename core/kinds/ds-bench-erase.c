/* ds-bench-erase.c: a gated full overwrite or discard (kind "erase")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-bench-erase.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"

#define PROGRESS_EVERY_NS (100 * DS_NS_PER_MSEC)
/* Discard in pieces of this size, so a Stop and the progress line work on
 * a device that takes minutes to trim. */
#define DISCARD_PIECE (UINT64_C (1) << 30)
#define MAX_RANGES 10000u

static gpointer
erase_data_new (void)
{
  DsEraseData *data = g_new0 (DsEraseData, 1);

  ds_range_list_init (&data->write_errors, MAX_RANGES);
  ds_range_list_init (&data->mismatches, MAX_RANGES);

  return data;
}

static void
erase_data_free (gpointer p)
{
  DsEraseData *data = p;

  ds_range_list_clear (&data->write_errors);
  ds_range_list_clear (&data->mismatches);
  g_free (data);
}

gboolean
ds_erase_discard_supported (const char *path)
{
  g_autofree char *attr = NULL;
  g_autofree char *text = NULL;
  struct stat st;

  if (stat (path, &st) != 0 || !S_ISBLK (st.st_mode))
    return FALSE;
  /* /sys/dev/block/M:m is the partition or the disk; a partition's queue
   * is its disk's (the link "../queue" does not exist for it). */
  attr = g_strdup_printf ("/sys/dev/block/%u:%u/queue/discard_max_bytes",
                          major (st.st_rdev), minor (st.st_rdev));
  if (!g_file_get_contents (attr, &text, NULL, NULL))
    {
      g_free (attr);
      attr = g_strdup_printf ("/sys/dev/block/%u:%u/../queue/discard_max_bytes",
                              major (st.st_rdev), minor (st.st_rdev));
      if (!g_file_get_contents (attr, &text, NULL, NULL))
        return FALSE;
    }

  return g_ascii_strtoull (text, NULL, 10) > 0;
}

static gboolean
is_media_error (int e)
{
  return ds_error_from_errno (e) == DS_ERROR_IO || e == EREMOTEIO || e == ETIMEDOUT;
}

/* The pseudo-random content of the block at @offset: a stream of its own,
 * so verify regenerates any block without keeping anything. */
static void
fill_random_block (void     *buf,
                   uint64_t  len,
                   uint64_t  seed,
                   uint64_t  offset)
{
  DsRng rng;

  ds_rng_seed (&rng, seed ^ (offset * UINT64_C (0x9E3779B97F4A7C15)));
  ds_buffer_fill (buf, len, &rng);
}

static int
io_full (int       fd,
         gboolean  write,
         void     *buf,
         uint64_t  len,
         uint64_t  offset)
{
  uint64_t done = 0;

  while (done < len)
    {
      ssize_t n = write ? pwrite (fd, (char *) buf + done, len - done, (off_t) (offset + done))
                        : pread (fd, (char *) buf + done, len - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -errno;
      if (n == 0)
        return write ? -ENOSPC : -EIO;
      done += (uint64_t) n;
    }

  return 0;
}

typedef struct {
  DsRun       *run;
  DsEraseData *data;
  int          fd;
  uint64_t     phase_start_ns;
  uint64_t     last_emit_ns;
  double       progress_base;   /* of the whole run, where the phase starts */
  double       progress_share;  /* of the whole run, this phase */
} Erase;

static void
phase_begin (Erase      *e,
             const char *name,
             double      base,
             double      share)
{
  DsSample sample = { .kind = DS_SAMPLE_PHASE, .name = name, .write = strcmp (name, "verify") != 0 };

  e->phase_start_ns = ds_clock_ns ();
  e->last_emit_ns = 0;
  e->progress_base = base;
  e->progress_share = share;
  ds_run_set_progress (e->run, base);
  ds_run_emit (e->run, &sample);
}

static void
phase_progress (Erase    *e,
                uint64_t  position,
                uint64_t  bytes,
                gboolean  force)
{
  uint64_t now = ds_clock_ns ();
  uint64_t elapsed = now - e->phase_start_ns;
  DsSample sample = {
    .kind = DS_SAMPLE_PROGRESS,
    .offset_bytes = position,
    .bytes = bytes,
    .elapsed_ns = elapsed,
    .value = elapsed ? (double) bytes * 1e9 / (double) elapsed : 0,
  };

  ds_run_set_progress (e->run, e->progress_base + e->progress_share *
                       (double) position / (double) MAX (e->data->size_bytes, 1));
  if (!force && now - e->last_emit_ns < PROGRESS_EVERY_NS)
    return;
  e->last_emit_ns = now;
  ds_run_emit (e->run, &sample);
}

/* Sets @error for a failure that ends the run and returns @r. */
static int
fail (Erase     *e,
      int        r,
      uint64_t   offset,
      GError   **error)
{
  if (r == -ECANCELED)
    return ds_run_check_cancelled (e->run, error);
  ds_set_error_from_errno (error, r, e->run->target->path);
  e->run->error_errno = -r;
  e->run->error_offset_bytes = (int64_t) offset;
  return r;
}

static int
overwrite (Erase   *e,
           void    *buf,
           GError **error)
{
  DsEraseData *data = e->data;
  uint64_t block = data->block_bytes;
  int r;

  if (data->method == DS_ERASE_ZEROS)
    memset (buf, 0, block);

  for (uint64_t off = 0; off < data->size_bytes; off += block)
    {
      uint64_t len = MIN (block, data->size_bytes - off);

      if (ds_run_cancelled (e->run))
        return fail (e, -ECANCELED, off, error);
      if (data->method == DS_ERASE_RANDOM)
        fill_random_block (buf, len, data->seed, off);
      r = io_full (e->fd, TRUE, buf, len, off);
      if (r < 0 && !is_media_error (-r))
        return fail (e, r, off, error);
      if (r < 0)
        ds_range_list_add (&data->write_errors, off, len);
      else
        data->bytes_done += len;
      data->erase_ns = ds_clock_ns () - e->phase_start_ns;
      phase_progress (e, off + len, data->bytes_done, FALSE);
    }

  /* O_DIRECT bypasses the page cache, not the drive's own write cache. */
  if (fsync (e->fd) != 0)
    return fail (e, -errno, data->size_bytes, error);
  data->erase_ns = ds_clock_ns () - e->phase_start_ns;
  phase_progress (e, data->size_bytes, data->bytes_done, TRUE);

  return 0;
}

static int
discard (Erase   *e,
         GError **error)
{
  DsEraseData *data = e->data;
  DsTarget *target = e->run->target;
  gboolean secure = data->method == DS_ERASE_SECURE_DISCARD;

  if (target->kind == DS_TARGET_FILE && secure)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s is a regular file: a secure discard is a block device's "
                   "command; use --discard (punches a hole) or an overwrite"),
                   target->path);
      return -EOPNOTSUPP;
    }
  if (target->kind == DS_TARGET_BLOCK && !secure && !ds_erase_discard_supported (target->path))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s does not support discard (its queue/discard_max_bytes is 0): "
                   "nothing was written; use an overwrite (--zeros or --random)"),
                   target->path);
      return -EOPNOTSUPP;
    }

  for (uint64_t off = 0; off < data->size_bytes; off += DISCARD_PIECE)
    {
      uint64_t len = MIN (DISCARD_PIECE, data->size_bytes - off);
      int r = 0;

      if (ds_run_cancelled (e->run))
        return fail (e, -ECANCELED, off, error);
      if (target->kind == DS_TARGET_FILE)
        {
          if (fallocate (e->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                         (off_t) off, (off_t) len) != 0)
            r = -errno;
        }
      else
        {
          uint64_t range[2] = { off, len };

          if (ioctl (e->fd, secure ? BLKSECDISCARD : BLKDISCARD, range) != 0)
            r = -errno;
        }
      if (r == -EOPNOTSUPP && off == 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                       _("%s does not support %s: nothing was erased; use %s"),
                       target->path, secure ? "secure discard (BLKSECDISCARD)" :
                       "discard (hole punching)",
                       secure ? "--discard or an overwrite" : "an overwrite");
          return r;
        }
      if (r < 0)
        return fail (e, r, off, error);
      data->bytes_done += len;
      data->erase_ns = ds_clock_ns () - e->phase_start_ns;
      phase_progress (e, off + len, data->bytes_done, FALSE);
    }
  phase_progress (e, data->size_bytes, data->bytes_done, TRUE);

  return 0;
}

static gboolean
all_zero (const guint8 *p,
          uint64_t      len)
{
  static const guint8 zeros[4096];

  for (uint64_t i = 0; i < len; i += sizeof zeros)
    if (memcmp (p + i, zeros, MIN (sizeof zeros, len - i)) != 0)
      return FALSE;

  return TRUE;
}

static int
verify (Erase   *e,
        void    *buf,
        void    *expect,
        GError **error)
{
  DsEraseData *data = e->data;
  uint64_t block = data->block_bytes;

  for (uint64_t off = 0; off < data->size_bytes; off += block)
    {
      uint64_t len = MIN (block, data->size_bytes - off);
      gboolean same;
      int r;

      if (ds_run_cancelled (e->run))
        return fail (e, -ECANCELED, off, error);
      r = io_full (e->fd, FALSE, buf, len, off);
      if (r < 0 && !is_media_error (-r))
        return fail (e, r, off, error);
      if (r < 0)
        same = FALSE;
      else if (data->method == DS_ERASE_RANDOM)
        {
          fill_random_block (expect, len, data->seed, off);
          same = memcmp (buf, expect, len) == 0;
        }
      else
        same = all_zero (buf, len);
      if (!same)
        ds_range_list_add (&data->mismatches, off, len);
      data->bytes_verified += len;
      data->verify_ns = ds_clock_ns () - e->phase_start_ns;
      phase_progress (e, off + len, data->bytes_verified, FALSE);
    }
  phase_progress (e, data->size_bytes, data->bytes_verified, TRUE);
  data->verified = data->mismatches.ranges->len == 0 && !data->mismatches.truncated;

  return 0;
}

static int
erase_run (DsRun   *run,
           GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsTarget *target = run->target;
  DsEraseData *data = run->result->data;
  gboolean overwrites = spec->erase_method == DS_ERASE_ZEROS || spec->erase_method == DS_ERASE_RANDOM;
  double erase_share = spec->verify ? 0.5 : 1.0;
  Erase e = { .run = run, .data = data, .fd = target->fd };
  void *buf = NULL;
  void *expect = NULL;
  int r;

  data->method = spec->erase_method;
  data->verify = spec->verify;
  data->size_bytes = ds_align_down (target->size_bytes, target->logical_block_size);
  data->block_bytes = ds_align_down (spec->block_size_bytes, target->logical_block_size);
  data->seed = ds_rng_next (&run->rng);
  if (data->block_bytes == 0 || data->size_bytes == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("%s: nothing to erase"), target->path);
      return -EINVAL;
    }

  if (overwrites || spec->verify)
    {
      size_t align = MAX (target->mem_align, 4096);

      buf = ds_buffer_alloc (data->block_bytes, align);
      expect = ds_buffer_alloc (data->block_bytes, align);
      if (buf == NULL || expect == NULL)
        {
          g_autofree char *block = ds_format_block (data->block_bytes);

          ds_buffer_free (buf);
          ds_buffer_free (expect);
          g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                       _("%s: could not allocate the erase's buffers (2 × %s blocks, to "
                       "write and to verify): %s; lower --block-size; nothing was written"),
                       target->path, block, g_strerror (ENOMEM));
          return -ENOMEM;
        }
    }

  phase_begin (&e, overwrites ? "write" : "discard", 0, erase_share);
  r = overwrites ? overwrite (&e, buf, error) : discard (&e, error);

  if (r == 0 && spec->verify)
    {
      phase_begin (&e, "verify", erase_share, 1.0 - erase_share);
      r = verify (&e, buf, expect, error);
    }

  ds_buffer_free (buf);
  ds_buffer_free (expect);
  if (r < 0)
    return r;

  if (data->write_errors.ranges->len > 0)
    {
      const DsByteRange *first = &g_array_index (data->write_errors.ranges, DsByteRange, 0);

      g_set_error (error, DS_ERROR, DS_ERROR_IO,
                   _("%s: %" PRIu64 " bytes could not be written (first at offset %"
                   PRIu64 "): the old data there may survive"),
                   target->path, data->write_errors.total_bytes, first->offset_bytes);
      run->error_errno = EIO;
      run->error_offset_bytes = (int64_t) first->offset_bytes;
      return -EIO;
    }
  if (data->mismatches.ranges->len > 0)
    {
      const DsByteRange *first = &g_array_index (data->mismatches.ranges, DsByteRange, 0);

      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("%s: verify failed: %" PRIu64 " bytes did not read back as %s "
                   "(first block at offset %" PRIu64 ")%s"),
                   target->path, data->mismatches.total_bytes,
                   overwrites ? "written" : "zeros", first->offset_bytes,
                   overwrites ? "" : ": this device does not promise zeros after a "
                   "discard, and the old data may still be readable; use an overwrite");
      run->error_offset_bytes = (int64_t) first->offset_bytes;
      return -EIO;
    }

  return 0;
}

/* ---- JSON --------------------------------------------------------------- */

static JsonNode *
erase_to_json (const DsResult *result)
{
  const DsEraseData *data = result->data;
  JsonObject *o = json_object_new ();
  JsonNode *node = ds_json_node_take_object (o);

  json_object_set_string_member (o, "method", ds_erase_method_to_string (data->method));
  json_object_set_boolean_member (o, "verify", data->verify);
  if (data->verify && data->bytes_verified == data->size_bytes && data->size_bytes > 0)
    json_object_set_boolean_member (o, "verified", data->verified);
  else
    json_object_set_null_member (o, "verified");
  json_object_set_int_member (o, "size_bytes", (gint64) data->size_bytes);
  json_object_set_int_member (o, "block_bytes", (gint64) data->block_bytes);
  json_object_set_int_member (o, "bytes_done", (gint64) data->bytes_done);
  json_object_set_double_member (o, "elapsed_s", (double) data->erase_ns / 1e9);
  json_object_set_double_member (o, "bytes_per_s", data->erase_ns ? (double) data->bytes_done * 1e9 /
                                                                    (double) data->erase_ns : 0);
  json_object_set_int_member (o, "bytes_verified", (gint64) data->bytes_verified);
  json_object_set_double_member (o, "verify_elapsed_s", (double) data->verify_ns / 1e9);
  json_object_set_member (o, "write_errors", ds_range_list_to_json (&data->write_errors));
  json_object_set_member (o, "mismatches", ds_range_list_to_json (&data->mismatches));

  return node;
}

static gpointer
erase_from_json (JsonObject  *o,
                 GError     **error)
{
  DsEraseData *data = erase_data_new ();
  const char *w = "results";
  const char *method;
  JsonNode *verified;
  JsonArray *ranges;
  double d;

  method = ds_json_get_string (o, w, "method", FALSE, error);
  if (method == NULL)
    goto fail;
  if (!ds_erase_method_from_string (method, &data->method))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.method “%s” is unknown"), method);
      goto fail;
    }
  verified = json_object_get_member (o, "verified");
  if (verified == NULL || (!JSON_NODE_HOLDS_NULL (verified) &&
                           (!JSON_NODE_HOLDS_VALUE (verified) ||
                            json_node_get_value_type (verified) != G_TYPE_BOOLEAN)))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.verified is not true, false or null"));
      goto fail;
    }
  data->verified = JSON_NODE_HOLDS_VALUE (verified) && json_node_get_boolean (verified);
  data->verify = json_object_get_boolean_member_with_default (o, "verify", FALSE);
  if (!ds_json_get_uint64 (o, w, "size_bytes", G_MAXINT64, &data->size_bytes, error) ||
      !ds_json_get_uint64 (o, w, "block_bytes", DS_LIMIT_ERASE_BLOCK_MAX, &data->block_bytes, error) ||
      !ds_json_get_uint64 (o, w, "bytes_done", data->size_bytes, &data->bytes_done, error) ||
      !ds_json_get_uint64 (o, w, "bytes_verified", data->size_bytes, &data->bytes_verified, error) ||
      !ds_json_get_double (o, w, "elapsed_s", 0, 1e9, &d, error))
    goto fail;
  data->erase_ns = ds_json_seconds_to_ns (d);
  if (!ds_json_get_double (o, w, "verify_elapsed_s", 0, 1e9, &d, error))
    goto fail;
  data->verify_ns = ds_json_seconds_to_ns (d);
  ranges = ds_json_get_array (o, w, "write_errors", error);
  if (ranges == NULL ||
      !ds_range_list_from_json (&data->write_errors, ranges, "results.write_errors",
                                data->size_bytes, error))
    goto fail;
  ranges = ds_json_get_array (o, w, "mismatches", error);
  if (ranges == NULL ||
      !ds_range_list_from_json (&data->mismatches, ranges, "results.mismatches",
                                data->size_bytes, error))
    goto fail;

  return data;

fail:
  erase_data_free (data);
  return NULL;
}

/* ---- report ------------------------------------------------------------- */

static const char *
method_words (DsEraseMethod method)
{
  switch (method)
    {
    case DS_ERASE_ZEROS: return "overwrite with zeros";
    case DS_ERASE_RANDOM: return "overwrite with pseudo-random data";
    case DS_ERASE_DISCARD: return "discard (BLKDISCARD; a punched hole for a file)";
    case DS_ERASE_SECURE_DISCARD: return "secure discard (BLKSECDISCARD)";
    default: return "?";
    }
}

static void
erase_report (const DsResult *result,
              DsUnits         units,
              GString        *out)
{
  const DsEraseData *data = result->data;
  gboolean overwrites = data->method == DS_ERASE_ZEROS || data->method == DS_ERASE_RANDOM;
  g_autofree char *rate = ds_format_rate (data->erase_ns ? (double) data->bytes_done * 1e9 /
                                          (double) data->erase_ns : 0, units);
  g_autofree char *done = g_strdup_printf ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                           " bytes in %.1f s (%s)",
                                           data->bytes_done, data->size_bytes,
                                           (double) data->erase_ns / 1e9, rate);
  const char *verified;

  ds_report_figure (out, "Method", method_words (data->method));
  ds_report_figure (out, overwrites ? "Written" : "Discarded", done);
  if (!data->verify)
    verified = "not asked (--verify reads every byte back)";
  else if (data->bytes_verified < data->size_bytes)
    verified = "stopped before the end";
  else if (data->verified)
    verified = overwrites ? "yes: every byte read back as written"
                          : "yes: every byte reads back as zero";
  else
    verified = "NO: some blocks read back otherwise (listed below)";
  ds_report_figure (out, "Verified", verified);
  if (data->verify && data->verify_ns > 0)
    {
      g_autofree char *vrate = ds_format_rate ((double) data->bytes_verified * 1e9 /
                                               (double) data->verify_ns, units);
      g_autofree char *vline = g_strdup_printf ("%" G_GUINT64_FORMAT " bytes in %.1f s (%s)",
                                                data->bytes_verified,
                                                (double) data->verify_ns / 1e9, vrate);
      ds_report_figure (out, "Read back", vline);
    }

  if (data->write_errors.ranges->len > 0)
    {
      g_string_append (out, "\nBlocks that could not be written:\n");
      ds_range_list_report (&data->write_errors, 50, out);
    }
  if (data->mismatches.ranges->len > 0)
    {
      g_string_append (out, "\nBlocks that did not verify:\n");
      ds_range_list_report (&data->mismatches, 50, out);
    }
}

const DsBenchOps ds_bench_erase = {
  .kind = DS_BENCH_ERASE,
  .name = "erase",
  .title = "Erase",
  .opens_target = TRUE,
  .data_new = erase_data_new,
  .data_free = erase_data_free,
  .run = erase_run,
  .to_json = erase_to_json,
  .from_json = erase_from_json,
  .report = erase_report,
  .writes = DS_BENCH_WRITES_ALWAYS,
};
