/* ds-trace-synth-out.c: a synthesized workload's outputs: a fio job file
 * (one section per phase, in order), custom rows, what neither can
 * express, its JSON and its text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-trace.h"

#define ALIGN       UINT64_C (4096)     /* fio's region, for any sector size */
#define ROW_MIN_NS  (UINT64_C (100) * 1000000)
#define ROW_MAX_NS  (UINT64_C (3600) * 1000000000)
#define ROWS_MAX    16u
#define ONE_SIZE    0.90                /* a mode this common: bs, not bssplit */

static gboolean
is_idle (const DsTraceSynthPhase *p)
{
  return p->reads + p->writes == 0;
}

static unsigned
mix_percent (const DsTraceSynthPhase *p)
{
  return (unsigned) lround (100 * p->read_share);
}

static gboolean
is_sequential (const DsTraceSynthPhase *p)
{
  return p->sequential_share >= 0.5;
}

const char *
ds_trace_synth_pattern (const DsTraceSynthPhase *p)
{
  unsigned mix = mix_percent (p);
  gboolean seq = is_sequential (p);

  if (is_idle (p))
    return "idle";
  if (mix == 100)
    return seq ? "read" : "randread";
  if (mix == 0)
    return seq ? "write" : "randwrite";
  return seq ? "rw" : "randrw";
}

/* "8k", "1m", "1536" as fio and the rows both read sizes. */
static char *
size_token (uint32_t bytes)
{
  if (bytes % (1024 * 1024) == 0)
    return g_strdup_printf ("%" PRIu32 "m", bytes >> 20);
  if (bytes % 1024 == 0)
    return g_strdup_printf ("%" PRIu32 "k", bytes >> 10);
  return g_strdup_printf ("%" PRIu32, bytes);
}

static unsigned
row_depth (const DsTraceSynthPhase *p)
{
  return (unsigned) CLAMP (lround (p->mean_depth), 1, 4096);
}

char *
ds_trace_synth_rows (const DsTraceSynth *synth)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < synth->phases->len; i++)
    {
      const DsTraceSynthPhase *p = &g_array_index (synth->phases, DsTraceSynthPhase, i);
      g_autofree char *bs = NULL;
      const char *pattern = ds_trace_synth_pattern (p);
      uint64_t ms = (CLAMP (p->duration_ns, ROW_MIN_NS, ROW_MAX_NS) + 500000) / 1000000;

      if (is_idle (p))
        continue;
      bs = size_token (p->mode_bytes);
      g_string_append_printf (out, "%s%s,%s,qd%u,t1", out->len ? ";" : "", pattern, bs, row_depth (p));
      if (strcmp (pattern, "rw") == 0 || strcmp (pattern, "randrw") == 0)
        g_string_append_printf (out, ",mix%u", mix_percent (p));
      if (ms % 1000 == 0)
        g_string_append_printf (out, ",%" PRIu64 "s", ms / 1000);
      else
        g_string_append_printf (out, ",%" PRIu64 "ms", ms);
    }
  return g_string_free (out, FALSE);
}

typedef struct {
  uint64_t fua, discards, lone_flushes, flushes, idle, rows, long_rows, spread;
  gboolean depth_unknown;
} Totals;

static void
totals (const DsTraceSynth *synth,
        Totals             *t)
{
  memset (t, 0, sizeof *t);
  t->depth_unknown = (synth->header.flags & DS_TRACE_HAS_COMPLETIONS) == 0;
  for (guint i = 0; i < synth->phases->len; i++)
    {
      const DsTraceSynthPhase *p = &g_array_index (synth->phases, DsTraceSynthPhase, i);

      t->fua += p->fua;
      t->discards += p->discards;
      t->flushes += p->flushes;
      if (p->writes == 0)
        t->lone_flushes += p->flushes;
      t->idle += is_idle (p);
      t->rows += !is_idle (p);
      t->long_rows += !is_idle (p) && (p->duration_ns < ROW_MIN_NS || p->duration_ns > ROW_MAX_NS);
      t->spread += !is_idle (p) && p->n_sizes > 0 && p->size_share[0] < ONE_SIZE;
    }
}

static void
caveats_rows (const Totals *t,
              GString      *out)
{
  g_string_append (out, _("Rows run as fast as the target goes at their queue depth: the trace's rates "
                          "(read and write IOPS) are not limited.\n"));
  g_string_append (out, _("Rows keep the queue depth the trace had on average (at least 1), one thread.\n"));
  if (t->spread > 0)
    g_string_append_printf (out, _("Rows have one block size, the most common: %" PRIu64
                                   " phases spread over several (the fio job splits them).\n"), t->spread);
  /* xgettext:no-c-format */
  g_string_append (out, _("Rows are random or sequential (the sequential share at 50 % or more) and "
                          "cover the test size, not the trace's region.\n"));
  if (t->flushes > 0)
    g_string_append_printf (out, _("Rows issue no flushes (the trace has %" PRIu64 ").\n"), t->flushes);
  if (t->idle > 0)
    g_string_append_printf (out, _("Rows have no idle time: %" PRIu64 " idle phases are left out.\n"), t->idle);
  if (t->long_rows > 0)
    g_string_append_printf (out, _("A row runs 100 ms to 1 h: %" PRIu64 " phases were shortened or lengthened.\n"),
                            t->long_rows);
  if (t->rows > ROWS_MAX)
    g_string_append_printf (out, _("A run takes %u rows at most: %" PRIu64 " phases (fewer with --phases).\n"),
                            ROWS_MAX, t->rows);
}

char *
ds_trace_synth_caveats (const DsTraceSynth *synth,
                        gboolean            rows)
{
  GString *out = g_string_new (NULL);
  Totals t;

  totals (synth, &t);
  if (rows)
    caveats_rows (&t, out);
  else
    {
      g_string_append (out, _("fio spaces each phase's I/Os evenly at its rate: bursts within a phase are "
                              "not reproduced.\n"));
      g_string_append (out, _("Offsets are uniform over the phase's region (random) or in order (sequential): "
                              "hot spots are not reproduced.\n"));
      if (t.flushes > 0)
        g_string_append (out, _("Flushes are an fsync every N writes (a flush of the device): their rate "
                                "follows the writes'.\n"));
    }
  if (t.depth_unknown)
    g_string_append (out, _("The trace has no completions: the depth is unknown (1).\n"));
  if (t.lone_flushes > 0)
    g_string_append_printf (out, _("%" PRIu64 " flushes in phases without writes are left out.\n"), t.lone_flushes);
  if (t.fua > 0)
    g_string_append_printf (out, _("%" PRIu64 " FUA writes are plain writes.\n"), t.fua);
  if (t.discards > 0)
    g_string_append_printf (out, _("%" PRIu64 " discards are left out.\n"), t.discards);
  return g_string_free (out, FALSE);
}

static void
append_comment (GString    *out,
                const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_string_append_printf (out, "#   %s\n", lines[i]);
}

static void
describe (const DsTraceSynthPhase *p,
          guint                    index,
          GString                 *out)
{
  g_string_append_printf (out, _("# Phase %u: %.3f s to %.3f s of the trace"), index + 1,
                          (double) p->start_ns / 1e9, (double) (p->start_ns + p->duration_ns) / 1e9);
  if (is_idle (p))
    {
      g_string_append_printf (out, _(": idle (no reads or writes).\n"));
      return;
    }
  g_string_append_printf (out, _(": %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " flushes;\n"),
                          p->reads, p->writes, p->flushes);
  g_string_append_printf (out, _("#   %.1f reads/s, %.1f writes/s (%.1f %% reads), %.1f flushes/s;\n"),
                          p->read_iops, p->write_iops, 100 * p->read_share, p->flushes_per_s);
  g_string_append_printf (out, _("#   mode %" PRIu32 " B (%.1f %% of the I/Os), %.1f %% sequential;\n"),
                          p->mode_bytes, 100 * p->size_share[0], 100 * p->sequential_share);
  if (p->peak_depth > 0)
    g_string_append_printf (out, _("#   in flight %.2f on average, %" PRIu32 " at most;"), p->mean_depth, p->peak_depth);
  else
    g_string_append (out, _("#   in flight: unknown (no completions);"));
  g_string_append_printf (out, _(" offsets %" PRIu64 " to %" PRIu64 ".\n"), p->offset_start, p->offset_end);
}

/* bs=8k, or bssplit=4k/60:8k/40 (whole percentages summing to 100; sizes
 * under 1 % left to the mode). */
static void
job_sizes (const DsTraceSynthPhase *p,
           GString                 *out)
{
  long shares[DS_TRACE_SYNTH_SIZES], sum = 0;
  g_autofree char *mode = size_token (p->mode_bytes);

  if (p->size_share[0] >= ONE_SIZE || p->n_sizes < 2)
    {
      g_string_append_printf (out, "bs=%s\n", mode);
      return;
    }
  for (unsigned i = 0; i < p->n_sizes; i++)
    sum += shares[i] = lround (100 * p->size_share[i]);
  shares[0] += 100 - sum;
  g_string_append (out, "bssplit=");
  for (unsigned i = 0, n = 0; i < p->n_sizes; i++)
    if (shares[i] > 0)
      {
        g_autofree char *bs = size_token (p->size_bytes[i]);

        g_string_append_printf (out, "%s%s/%ld", n++ ? ":" : "", bs, shares[i]);
      }
  g_string_append_c (out, '\n');
}

static void
job_data (const DsTraceSynthPhase *p,
          GString                 *out)
{
  const char *pattern = ds_trace_synth_pattern (p);
  uint64_t lo = p->offset_start / ALIGN * ALIGN, hi = (p->offset_end + ALIGN - 1) / ALIGN * ALIGN;
  uint32_t largest = 0;
  long random = lround (100 * (1 - p->sequential_share));

  for (unsigned i = 0; i < p->n_sizes; i++)
    largest = MAX (largest, p->size_bytes[i]);
  hi = MAX (hi, lo + (largest + ALIGN - 1) / ALIGN * ALIGN);
  g_string_append_printf (out, "rw=%s\n", pattern);
  if (strcmp (pattern, "randrw") == 0 || strcmp (pattern, "rw") == 0)
    g_string_append_printf (out, "rwmixread=%u\n", mix_percent (p));
  job_sizes (p, out);
  /* Random jobs with a sequential share: that share goes in order. */
  if (!is_sequential (p) && random < 100)
    g_string_append_printf (out, "percentage_random=%ld\n", random);
  g_string_append_printf (out, "iodepth=%" PRIu32 "\n", MAX (p->peak_depth, 1));
  /* fio limits reads and writes apart: rate_iops=READS,WRITES. */
  if (p->reads > 0 && p->writes > 0)
    g_string_append_printf (out, "rate_iops=%ld,%ld\n", MAX (lround (p->read_iops), 1), MAX (lround (p->write_iops), 1));
  else
    g_string_append_printf (out, "rate_iops=%ld\n", MAX (lround (p->reads > 0 ? p->read_iops : p->write_iops), 1));
  if (p->flushes > 0 && p->writes > 0)
    g_string_append_printf (out, "fsync=%" PRIu64 "\n", MAX ((p->writes + p->flushes / 2) / p->flushes, 1));
  g_string_append_printf (out, "offset=%" PRIu64 "\nsize=%" PRIu64 "\n", lo, hi - lo);
}

static void
job_phase (const DsTraceSynthPhase *p,
           guint                    index,
           GString                 *out)
{
  describe (p, index, out);
  g_string_append_printf (out, "[phase%u]\nstonewall\nruntime=%" PRIu64 "ms\n", index + 1,
                          MAX ((p->duration_ns + 500000) / 1000000, 1));
  if (is_idle (p))
    {
      /* Nothing reaches the target: fio's null engine, one I/O a second. */
      g_string_append (out, "ioengine=null\nfilename=idle\nrw=read\nbs=4k\nsize=1m\nrate_iops=1\n\n");
      return;
    }
  job_data (p, out);
  g_string_append_c (out, '\n');
}

char *
ds_trace_synth_fio_job (const DsTraceSynth *synth,
                        const char         *filename)
{
  GString *out = g_string_new (NULL);
  g_autofree char *caveats = ds_trace_synth_caveats (synth, FALSE);
  gboolean writes = FALSE;

  for (guint i = 0; i < synth->phases->len; i++)
    writes |= g_array_index (synth->phases, DsTraceSynthPhase, i).writes > 0;
  g_string_append_printf (out, _("# Synthesized by diskscope-cli synthesize from the trace %s"), synth->trace);
  if (synth->process != NULL)
    g_string_append_printf (out, _(" (the requests of %s)"), synth->process);
  g_string_append_printf (out, _(",\n# of %s: %u phases, run in order, each with the trace's figures.\n"),
                          synth->header.device[0] ? synth->header.device : "?", synth->phases->len);
  if (filename == NULL)
    g_string_append (out, _("# Set the target: TARGET=/dev/sdX fio FILE (or synthesize --target).\n"));
  if (writes)
    g_string_append (out, _("# WARNING: this job WRITES to the target: what it holds there is lost.\n"));
  g_string_append (out, _("# Not expressed:\n"));
  append_comment (out, caveats);
  g_string_append_printf (out, "\n[global]\nfilename=%s\nioengine=libaio\ndirect=1\n"
                          "refill_buffers\nrandrepeat=0\nnorandommap\ntime_based\n\n",
                          filename != NULL ? filename : "${TARGET}");
  for (guint i = 0; i < synth->phases->len; i++)
    job_phase (&g_array_index (synth->phases, DsTraceSynthPhase, i), i, out);
  return g_string_free (out, FALSE);
}

static void
json_phase (JsonBuilder             *b,
            const DsTraceSynthPhase *p)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "pattern");
  json_builder_add_string_value (b, ds_trace_synth_pattern (p));
#define D(name, v) json_builder_set_member_name (b, name); json_builder_add_double_value (b, v)
#define I(name, v) json_builder_set_member_name (b, name); json_builder_add_int_value (b, (gint64) (v))
  D ("start_s", (double) p->start_ns / 1e9);
  D ("duration_s", (double) p->duration_ns / 1e9);
  I ("reads", p->reads);
  I ("writes", p->writes);
  I ("flushes", p->flushes);
  I ("discards", p->discards);
  I ("fua", p->fua);
  D ("read_iops", p->read_iops);
  D ("write_iops", p->write_iops);
  D ("flushes_per_s", p->flushes_per_s);
  D ("read_share", p->read_share);
  D ("sequential_share", p->sequential_share);
  D ("mean_depth", p->mean_depth);
  I ("peak_depth", p->peak_depth);
  I ("mode_bytes", p->mode_bytes);
  I ("offset_start", p->offset_start);
  I ("offset_end", p->offset_end);
  json_builder_set_member_name (b, "block_sizes");
  json_builder_begin_array (b);
  for (unsigned i = 0; i < p->n_sizes; i++)
    {
      json_builder_begin_object (b);
      I ("bytes", p->size_bytes[i]);
      D ("share", p->size_share[i]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
#undef D
#undef I
  json_builder_end_object (b);
}

JsonNode *
ds_trace_synth_to_json (const DsTraceSynth *synth)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autofree char *rows = ds_trace_synth_rows (synth);
  g_autofree char *fio = ds_trace_synth_caveats (synth, FALSE), *rc = ds_trace_synth_caveats (synth, TRUE);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "trace");
  json_builder_add_string_value (b, synth->trace);
  json_builder_set_member_name (b, "process");
  if (synth->process != NULL)
    json_builder_add_string_value (b, synth->process);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "interval_s");
  json_builder_add_double_value (b, (double) synth->interval_ns / 1e9);
  json_builder_set_member_name (b, "phases");
  json_builder_begin_array (b);
  for (guint i = 0; i < synth->phases->len; i++)
    json_phase (b, &g_array_index (synth->phases, DsTraceSynthPhase, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "rows");
  json_builder_add_string_value (b, rows);
  json_builder_set_member_name (b, "fio_not_expressed");
  json_builder_add_string_value (b, fio);
  json_builder_set_member_name (b, "rows_not_expressed");
  json_builder_add_string_value (b, rc);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

void
ds_trace_synth_print (const DsTraceSynth *synth,
                      FILE               *out)
{
  g_autofree char *rows = ds_trace_synth_rows (synth);

  fprintf (out, _("Trace: %s%s%s\n"), synth->trace, synth->process ? _(", process ") : "",
           synth->process ? synth->process : "");
  fprintf (out, _("Phases: %u\n"), synth->phases->len);
  for (guint i = 0; i < synth->phases->len; i++)
    {
      const DsTraceSynthPhase *p = &g_array_index (synth->phases, DsTraceSynthPhase, i);

      fprintf (out, _("  %2u  %8.3f s  %8.3f s  %-9s"), i + 1, (double) p->start_ns / 1e9,
               (double) p->duration_ns / 1e9, ds_trace_synth_pattern (p));
      if (!is_idle (p))
        fprintf (out, _("  %8.1f r/s %8.1f w/s  %5.1f %% reads  %7" PRIu32 " B  %5.1f %% seq  %.1f flushes/s"),
                 p->read_iops, p->write_iops, 100 * p->read_share, p->mode_bytes, 100 * p->sequential_share,
                 p->flushes_per_s);
      if (!is_idle (p) && p->peak_depth > 0)
        fprintf (out, _("  depth %.2f (max %" PRIu32 ")"), p->mean_depth, p->peak_depth);
      fputc ('\n', out);
    }
  fprintf (out, _("Rows: %s\n"), rows);
}
