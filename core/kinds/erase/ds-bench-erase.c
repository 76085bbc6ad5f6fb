/* ds-bench-erase.c: a gated full overwrite or discard (kind "erase")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run: an overwrite or a discard, then the verify, then the verdict.
 * How the target is cut into pieces and read and written is in
 * ds-erase-io.c; what a discard promises and how its verify tells whether
 * the data survived, in ds-erase-discard.c.
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "ds-bench-erase.h"
#include "ds-clock.h"
#include "ds-erase-private.h"
#include "ds-error.h"
#include "ds-run.h"
#include "ds-limits.h"
#include "ds-params.h"

static const char *const method_names[] = {
  [DS_ERASE_ZEROS] = "zeros",
  [DS_ERASE_RANDOM] = "random",
  [DS_ERASE_DISCARD] = "discard",
  [DS_ERASE_SECURE_DISCARD] = "secure-discard",
};

const char *
ds_erase_method_to_string (DsEraseMethod method)
{
  if ((unsigned) method >= G_N_ELEMENTS (method_names))
    return "zeros";

  return method_names[method];
}

gboolean
ds_erase_method_from_string (const char    *name,
                             DsEraseMethod *ret_method)
{
  for (unsigned i = 0; name != NULL && i < G_N_ELEMENTS (method_names); i++)
    if (strcmp (name, method_names[i]) == 0)
      {
        *ret_method = (DsEraseMethod) i;
        return TRUE;
      }

  return FALSE;
}

gboolean
ds_erase_method_overwrites (DsEraseMethod method)
{
  return method == DS_ERASE_ZEROS || method == DS_ERASE_RANDOM;
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

/* The pseudo-random content of the piece at @offset: a stream of its own,
 * so verify regenerates any piece without keeping anything. */
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
overwrite (Erase   *e,
           void    *buf,
           GError **error)
{
  DsEraseData *data = e->data;
  int r;

  if (data->method == DS_ERASE_ZEROS)
    memset (buf, 0, data->block_bytes);

  for (uint64_t off = 0; off < data->size_bytes; off += _ds_erase_piece_len (e, off))
    {
      uint64_t len = _ds_erase_piece_len (e, off);

      if (ds_run_cancelled (e->run))
        {
          _ds_erase_flush (e);
          return _ds_erase_fail (e, -ECANCELED, off, error);
        }
      if (data->method == DS_ERASE_RANDOM)
        fill_random_block (buf, len, data->seed, off);
      r = _ds_erase_write_piece (e, buf, len, off);
      if (r < 0 && !_ds_erase_media_error (-r))
        {
          _ds_erase_flush (e);
          return _ds_erase_fail (e, r, off, error);
        }
      if (r < 0)
        ds_range_list_add (&data->write_errors, off, len);
      else
        data->bytes_done += len;
      data->reached_bytes = off + len;
      data->erase_ns = ds_clock_ns () - e->phase_start_ns;
      _ds_erase_phase_progress (e, off + len, data->bytes_done, FALSE);
    }

  /* O_DIRECT bypasses the page cache, not the drive's own write cache. */
  if ((r = _ds_erase_flush (e)) < 0)
    return _ds_erase_fail (e, r, data->size_bytes, error);
  data->erase_ns = ds_clock_ns () - e->phase_start_ns;
  _ds_erase_phase_progress (e, data->size_bytes, data->bytes_done, TRUE);

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

  for (uint64_t off = 0; off < data->size_bytes; off += _ds_erase_piece_len (e, off))
    {
      uint64_t len = _ds_erase_piece_len (e, off);
      gboolean same;
      int r;

      if (ds_run_cancelled (e->run))
        return _ds_erase_fail (e, -ECANCELED, off, error);
      r = _ds_erase_read_piece (e, buf, len, off);
      if (r < 0 && !_ds_erase_media_error (-r))
        return _ds_erase_fail (e, r, off, error);
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
      if (!same && r == 0 && _ds_erase_survived (e, buf, off))
        ds_range_list_add (&data->survived, off, len);
      data->bytes_verified += len;
      data->verify_ns = ds_clock_ns () - e->phase_start_ns;
      _ds_erase_phase_progress (e, off + len, data->bytes_verified, FALSE);
    }
  _ds_erase_phase_progress (e, data->size_bytes, data->bytes_verified, TRUE);
  data->verified = data->mismatches.ranges->len == 0 && !data->mismatches.truncated;

  return 0;
}

/* The run's outcome once every piece was tried: the blocks that could not
 * be written or did not read back, as the error. */
static int
judge (DsRun    *run,
       GError  **error)
{
  DsEraseData *data = run->result->data;
  const char *path = run->target->path;
  const DsByteRange *first;

  if (data->write_errors.ranges->len > 0)
    {
      first = &g_array_index (data->write_errors.ranges, DsByteRange, 0);
      g_set_error (error, DS_ERROR, DS_ERROR_IO,
                   _("%s: %" PRIu64 " bytes could not be written (first at offset %"
                   PRIu64 "): the old data there may survive"),
                   path, data->write_errors.total_bytes, first->offset_bytes);
      run->error_errno = EIO;
      run->error_offset_bytes = (int64_t) first->offset_bytes;
      return -EIO;
    }
  if (data->mismatches.ranges->len == 0)
    return 0;

  first = &g_array_index (data->mismatches.ranges, DsByteRange, 0);
  run->error_offset_bytes = (int64_t) first->offset_bytes;
  if (ds_erase_method_overwrites (data->method))
    g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                 _("%s: verify failed: %" PRIu64 " bytes did not read back as written "
                 "(first block at offset %" PRIu64 ")"),
                 path, data->mismatches.total_bytes, first->offset_bytes);
  else if (data->survived.total_bytes > 0 && run->target->kind == DS_TARGET_FILE)
    g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                 _("%s: the discard did not erase: %" PRIu64 " bytes still read back "
                 "as the old data (first at offset %" PRIu64 "); the filesystem accepted "
                 "the punched hole and kept the data: use an overwrite (--zeros or --random)"),
                 path, data->survived.total_bytes,
                 g_array_index (data->survived.ranges, DsByteRange, 0).offset_bytes);
  else if (data->survived.total_bytes > 0)
    g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                 _("%s: the discard did not erase: %" PRIu64 " bytes still read back "
                 "as the old data (first at offset %" PRIu64 "); the device accepted "
                 "the discard and kept the data: use an overwrite (--zeros or --random)"),
                 path, data->survived.total_bytes,
                 g_array_index (data->survived.ranges, DsByteRange, 0).offset_bytes);
  else
    g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                 _("%s: verify failed: %" PRIu64 " bytes did not read back as zeros "
                 "after the discard (first block at offset %" PRIu64 "): this device "
                 "does not promise zeros after a discard, and the old data may still "
                 "be readable; use an overwrite (--zeros or --random)"),
                 path, data->mismatches.total_bytes, first->offset_bytes);

  return -EIO;
}

static int
erase_prepare (Erase    *e,
               void    **ret_buf,
               void    **ret_expect,
               GError  **error)
{
  DsTarget *target = e->run->target;
  DsEraseData *data = e->data;
  size_t align = MAX (target->mem_align, 4096);

  e->is_file = target->kind == DS_TARGET_FILE;
  e->align = target->direct ? MAX (target->logical_block_size, 1u) : 1u;
  e->direct_end = ds_align_down (data->size_bytes, e->align);
  data->block_bytes = ds_align_down (e->run->spec->block_size_bytes, e->align);
  if (data->block_bytes == 0 || data->size_bytes == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("%s: nothing to erase"), target->path);
      return -EINVAL;
    }
  e->n_pieces = _ds_erase_piece_index (e, e->direct_end) + (e->direct_end < data->size_bytes);
  if (!ds_erase_method_overwrites (data->method) && data->verify)
    {
      e->sample_stride = MAX ((e->n_pieces + DS_ERASE_MAX_SAMPLES - 1) / DS_ERASE_MAX_SAMPLES, 1);
      e->samples = g_new0 (uint64_t, e->n_pieces / e->sample_stride + 1);
    }

  /* A bare discard reads and writes nothing. */
  if (!ds_erase_method_overwrites (data->method) && !data->verify)
    return 0;
  *ret_buf = ds_buffer_alloc (data->block_bytes, align);
  *ret_expect = ds_buffer_alloc (data->block_bytes, align);
  if (*ret_buf == NULL || *ret_expect == NULL)
    {
      g_autofree char *block = ds_format_block (data->block_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("%s: could not allocate the erase's buffers (2 × %s blocks, to "
                   "write and to verify): %s; lower --block-size; nothing was written"),
                   target->path, block, g_strerror (ENOMEM));
      return -ENOMEM;
    }

  return 0;
}

static gboolean
erase_run (DsRun   *run,
           GError **error)
{
  const DsEraseOptions *o = ds_erase_options_const (run->spec);
  DsEraseData *data = run->result->data;
  gboolean overwrites = ds_erase_method_overwrites (o->method);
  /* A discard takes seconds; its verify reads every byte. */
  double erase_share = !o->verify ? 1.0 : overwrites ? 0.5 : 0.1;
  Erase e = { .run = run, .data = data, .fd = run->target->fd };
  void *buf = NULL;
  void *expect = NULL;
  int r;

  data->method = o->method;
  data->verify = o->verify;
  data->size_bytes = run->target->size_bytes;
  data->seed = ds_rng_next (&run->rng);

  r = erase_prepare (&e, &buf, &expect, error);
  if (r == 0)
    {
      _ds_erase_phase_begin (&e, overwrites ? "write" : "discard", 0, erase_share);
      r = overwrites ? overwrite (&e, buf, error) : _ds_erase_discard (&e, buf, error);
    }
  if (r == 0 && o->verify)
    {
      _ds_erase_phase_begin (&e, "verify", erase_share, 1.0 - erase_share);
      r = verify (&e, buf, expect, error);
    }

  ds_buffer_free (buf);
  ds_buffer_free (expect);
  g_free (e.samples);
  if (r < 0)
    return ds_run_ok (run, r, error);

  return ds_run_ok (run, judge (run, error), error);
}

/* Something was written or discarded, or read back. */
static gboolean
erase_measured (const DsResult *result)
{
  const DsEraseData *data = result->data;

  return data->reached_bytes > 0 || data->bytes_verified > 0;
}

static gpointer
erase_data_new (void)
{
  return ds_erase_data_new ();
}

static void
erase_data_free (gpointer data)
{
  ds_erase_data_free (data);
}

static JsonNode *
erase_to_json (const DsResult *result)
{
  return ds_erase_data_to_json (result->data);
}

static gpointer
erase_from_json (JsonObject  *results,
                 GError     **error)
{
  return ds_erase_data_from_json (results, error);
}

DsEraseOptions *
ds_erase_options (DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_ERASE, NULL);

  return spec->options;
}

const DsEraseOptions *
ds_erase_options_const (const DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_ERASE, NULL);

  return spec->options;
}

/* Erase is a write test whatever else the spec says. */
static void
erase_defaults (DsBenchSpec *spec)
{
  spec->write = TRUE;
}

static unsigned
erase_params (const DsBenchSpec *spec)
{
  (void) spec;
  return DS_PARAM_BLOCK;
}

static gboolean
erase_validate (const DsBenchSpec  *spec,
                GError            **error)
{
  DsEraseMethod method = ds_erase_options_const (spec)->method;

  if (!spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("erase writes the whole device: its spec must be a write test"));
      return FALSE;
    }
  if ((unsigned) method > DS_ERASE_SECURE_DISCARD)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("unknown erase method %u"),
                   (unsigned) method);
      return FALSE;
    }
  if (spec->block_size_bytes < DS_LIMIT_ERASE_BLOCK_MIN ||
      spec->block_size_bytes > DS_LIMIT_ERASE_BLOCK_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("erase writes blocks of 64K to 64M, not %" PRIu64 " bytes"),
                   spec->block_size_bytes);
      return FALSE;
    }

  return TRUE;
}

static void
erase_settings (const DsBenchSpec *spec,
                const DsResult    *result,
                GPtrArray         *parts)
{
  const DsEraseOptions *o = ds_erase_options_const (spec);

  (void) result;
  g_ptr_array_add (parts, g_strdup (ds_erase_method_to_string (o->method)));
  if (o->verify)
    g_ptr_array_add (parts, g_strdup (_("verified")));
}

static const char *
erase_confirm_words (const DsBenchSpec *spec)
{
  static const char *const words[] = {
    [DS_ERASE_ZEROS] = N_("overwritten with zeros"),
    [DS_ERASE_RANDOM] = N_("overwritten with random data"),
    [DS_ERASE_DISCARD] = N_("discarded"),
    [DS_ERASE_SECURE_DISCARD] = N_("securely discarded"),
  };

  DsEraseMethod method = ds_erase_options_const (spec)->method;

  if ((unsigned) method >= G_N_ELEMENTS (words))
    return NULL;

  return _(words[method]);
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
  .report = ds_erase_report,
  .measured = erase_measured,
  .writes = DS_BENCH_WRITES_DESTROYS,
  .spec_flags = DS_BENCH_SPEC_ROWS_ACCURACY | DS_BENCH_SPEC_OWN_IO,
  .default_block_bytes = DS_ERASE_DEFAULT_BLOCK,
  .options_size = sizeof (DsEraseOptions),
  .defaults = erase_defaults,
  .validate = erase_validate,
  .params = erase_params,
  .settings = erase_settings,
  .confirm_words = erase_confirm_words,
  .compare_rows = ds_erase_compare_rows,
  .fio_job = ds_erase_fio_job,
};
