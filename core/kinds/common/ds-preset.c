/* ds-preset.c: named workload presets (see ds-preset.h)
 *
 * Where each preset's numbers come from:
 *
 * CrystalDiskMark 8 (its source, DiskMarkDlg.cpp and DiskBench.cpp) runs
 * DiskSpd once per test with -b<block> -o<queue> -t<threads> -W0 -S (no
 * cache, write-through) and -w0 / -w100 / -w<write %> (+Mix), -r for the
 * random rows, on a test file it fills with random data first.  Each test
 * is a 5 s unmeasured run ("Preparing"), then Count runs (default 5) of the
 * measure time (5 s): it shows the highest MB/s and the lowest mean latency
 * of those runs.  It waits the Interval (5 s) between tests.  Its nine test
 * slots hold, with the default settings: 0-3 the Default profile's rows
 * (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1), 4-5 Peak (SEQ1M
 * Q8T1, RND4K Q32T1), 6-7 Real World (SEQ1M Q1T1, RND4K Q1T1), 8 Demo
 * (SEQ1M Q8T1, read and write, no Mix).  Its "NVMe SSD" setting makes the
 * Default rows SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1.  The
 * +Mix row's ratio is R70/W30 unless changed (R10 .. R90).  Test sizes 16
 * MiB .. 64 GiB, default 1 GiB.
 *
 * IOMeter's "Database" access specification is 8 KiB transfers, 67 %
 * reads, 100 % random; the preset cycles the outstanding I/Os 1, 2, 4 …
 * 256 (IOMeter's "cycle # outstanding I/Os", exponential), one worker.
 *
 * fio's OLTP job (rw=randrw, bs=8k, rwmixread=70, direct=1, libaio at the
 * default iodepth 1) swept over 16, 32, 64, 128 and 256 jobs.
 *
 * sysbench 1.0's fileio tests at their defaults: 16 KiB blocks, 4 threads,
 * rndrw with --file-rw-ratio=1.5 (60 % reads), a file set larger than RAM;
 * here with O_DIRECT (--file-extra-flags=direct) and without the periodic
 * fsync (--file-fsync-freq=0).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "ds-bench-mark.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-preset.h"

#define KIB (UINT32_C (1) << 10)
#define MIB (UINT32_C (1) << 20)
#define GIB (UINT64_C (1) << 30)
#define SEC DS_NS_PER_SEC

#define R  DS_MARK_COLUMN (DS_MARK_READ)
#define W  DS_MARK_COLUMN (DS_MARK_WRITE)
#define M  DS_MARK_COLUMN (DS_MARK_MIX)
#define RW (R | W)

#define ROW(id_, label_, random_, bs_, q_, t_, cols_, mix_) \
  { .id = id_, .label = label_, .random = random_, .block_size_bytes = bs_, \
    .queue_depth = q_, .threads = t_, .columns = cols_, .mix_percent = mix_ }

static const DsPresetRow cdm_default_rows[] = {
  ROW ("seq1m-q8t1", "SEQ1M Q8T1", FALSE, 1 * MIB, 8, 1, RW, 0),
  ROW ("seq1m-q1t1", "SEQ1M Q1T1", FALSE, 1 * MIB, 1, 1, RW, 0),
  ROW ("rnd4k-q32t1", "RND4K Q32T1", TRUE, 4 * KIB, 32, 1, RW, 0),
  ROW ("rnd4k-q1t1", "RND4K Q1T1", TRUE, 4 * KIB, 1, 1, RW, 0),
};

static const DsPresetRow cdm_nvme_rows[] = {
  ROW ("seq1m-q8t1", "SEQ1M Q8T1", FALSE, 1 * MIB, 8, 1, RW, 0),
  ROW ("seq128k-q32t1", "SEQ128K Q32T1", FALSE, 128 * KIB, 32, 1, RW, 0),
  ROW ("rnd4k-q32t16", "RND4K Q32T16", TRUE, 4 * KIB, 32, 16, RW, 0),
  ROW ("rnd4k-q1t1", "RND4K Q1T1", TRUE, 4 * KIB, 1, 1, RW, 0),
};

static const DsPresetRow cdm_peak_rows[] = {
  ROW ("seq1m-q8t1", "SEQ1M Q8T1", FALSE, 1 * MIB, 8, 1, RW, 0),
  ROW ("rnd4k-q32t1", "RND4K Q32T1", TRUE, 4 * KIB, 32, 1, RW, 0),
};

static const DsPresetRow cdm_real_rows[] = {
  ROW ("seq1m-q1t1", "SEQ1M Q1T1", FALSE, 1 * MIB, 1, 1, RW, 0),
  ROW ("rnd4k-q1t1", "RND4K Q1T1", TRUE, 4 * KIB, 1, 1, RW, 0),
};

static const DsPresetRow cdm_demo_rows[] = {
  ROW ("seq1m-q8t1", "SEQ1M Q8T1", FALSE, 1 * MIB, 8, 1, RW, 0),
};

static const DsPresetRow iometer_dbms_rows[] = {
  ROW ("rnd8k-q1t1", "RND8K Q1T1", TRUE, 8 * KIB, 1, 1, M, 67),
  ROW ("rnd8k-q2t1", "RND8K Q2T1", TRUE, 8 * KIB, 2, 1, M, 67),
  ROW ("rnd8k-q4t1", "RND8K Q4T1", TRUE, 8 * KIB, 4, 1, M, 67),
  ROW ("rnd8k-q8t1", "RND8K Q8T1", TRUE, 8 * KIB, 8, 1, M, 67),
  ROW ("rnd8k-q16t1", "RND8K Q16T1", TRUE, 8 * KIB, 16, 1, M, 67),
  ROW ("rnd8k-q32t1", "RND8K Q32T1", TRUE, 8 * KIB, 32, 1, M, 67),
  ROW ("rnd8k-q64t1", "RND8K Q64T1", TRUE, 8 * KIB, 64, 1, M, 67),
  ROW ("rnd8k-q128t1", "RND8K Q128T1", TRUE, 8 * KIB, 128, 1, M, 67),
  ROW ("rnd8k-q256t1", "RND8K Q256T1", TRUE, 8 * KIB, 256, 1, M, 67),
};

static const DsPresetRow fio_oltp_rows[] = {
  ROW ("rnd8k-q1t16", "RND8K Q1T16", TRUE, 8 * KIB, 1, 16, M, 70),
  ROW ("rnd8k-q1t32", "RND8K Q1T32", TRUE, 8 * KIB, 1, 32, M, 70),
  ROW ("rnd8k-q1t64", "RND8K Q1T64", TRUE, 8 * KIB, 1, 64, M, 70),
  ROW ("rnd8k-q1t128", "RND8K Q1T128", TRUE, 8 * KIB, 1, 128, M, 70),
  ROW ("rnd8k-q1t256", "RND8K Q1T256", TRUE, 8 * KIB, 1, 256, M, 70),
};

static const DsPresetRow sysbench_rows[] = {
  ROW ("seqwr", "seqwr", FALSE, 16 * KIB, 1, 4, W, 0),
  ROW ("seqrd", "seqrd", FALSE, 16 * KIB, 1, 4, R, 0),
  ROW ("rndrd", "rndrd", TRUE, 16 * KIB, 1, 4, R, 0),
  ROW ("rndwr", "rndwr", TRUE, 16 * KIB, 1, 4, W, 0),
  ROW ("rndrw", "rndrw", TRUE, 16 * KIB, 1, 4, M, 60),
};

#define CDM(name_, title_, profile_, rows_, mix_) \
  { .name = name_, .title = title_, .profile = profile_, \
    .source = "CrystalDiskMark 8", .order = DS_PRESET_BY_DIRECTION, \
    .mix_allowed = mix_, .rows = rows_, .n_rows = G_N_ELEMENTS (rows_), \
    .test_size_bytes = GIB, .count = 5, .duration_ns = 5 * SEC, \
    .warmup_ns = 5 * SEC, .pause_ns = 5 * SEC }

static const DsPreset presets[] = {
  CDM ("cdm-default", "CrystalDiskMark 8, Default profile", "Default", cdm_default_rows, TRUE),
  CDM ("cdm-nvme", "CrystalDiskMark 8, Default profile with the NVMe SSD setting",
       "Default", cdm_nvme_rows, TRUE),
  CDM ("cdm-peak", "CrystalDiskMark 8, Peak Performance profile", "Peak", cdm_peak_rows, TRUE),
  CDM ("cdm-real-world", "CrystalDiskMark 8, Real World Performance profile", "Real",
       cdm_real_rows, TRUE),
  CDM ("cdm-demo", "CrystalDiskMark 8, Demo profile", "Demo", cdm_demo_rows, FALSE),
  {
    .name = "iometer-dbms",
    .title = "IOMeter's Database pattern, outstanding I/Os cycled 1 to 256",
    .source = "IOMeter (access specification \"Database\")",
    .order = DS_PRESET_BY_ROW,
    .rows = iometer_dbms_rows, .n_rows = G_N_ELEMENTS (iometer_dbms_rows),
    .count = 1, .duration_ns = 10 * SEC,
  },
  {
    .name = "fio-oltp",
    .title = "fio OLTP: 8K random 70 % reads, 16 to 256 jobs at queue depth 1",
    .source = "fio (rw=randrw bs=8k rwmixread=70 direct=1, numjobs 16..256)",
    .order = DS_PRESET_BY_ROW,
    .rows = fio_oltp_rows, .n_rows = G_N_ELEMENTS (fio_oltp_rows),
    .count = 1, .duration_ns = 10 * SEC,
  },
  {
    .name = "sysbench-fileio",
    .title = "sysbench fileio: seqwr, seqrd, rndrd, rndwr, rndrw on a set larger than RAM",
    .source = "sysbench 1.0 fileio (16K blocks, 4 threads, rw ratio 1.5)",
    .order = DS_PRESET_BY_ROW,
    .rows = sysbench_rows, .n_rows = G_N_ELEMENTS (sysbench_rows),
    .size_from_ram = TRUE, .count = 1, .duration_ns = 10 * SEC,
  },
};

static const char *const direction_names[] = {
  [DS_MARK_READ] = "read",
  [DS_MARK_WRITE] = "write",
  [DS_MARK_MIX] = "mix",
};

const DsPreset *
ds_preset_get (unsigned index)
{
  return index < G_N_ELEMENTS (presets) ? &presets[index] : NULL;
}

unsigned
ds_preset_count (void)
{
  return G_N_ELEMENTS (presets);
}

const DsPreset *
ds_preset_lookup (const char *name)
{
  for (unsigned i = 0; name != NULL && i < G_N_ELEMENTS (presets); i++)
    if (g_ascii_strcasecmp (presets[i].name, name) == 0)
      return &presets[i];

  return NULL;
}

char *
ds_preset_names (void)
{
  GString *names = g_string_new (NULL);

  for (unsigned i = 0; i < G_N_ELEMENTS (presets); i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", presets[i].name);

  return g_string_free (names, FALSE);
}

const char *
ds_mark_direction_to_string (DsMarkDirection direction)
{
  return (unsigned) direction < G_N_ELEMENTS (direction_names) ? direction_names[direction] : "?";
}

void
ds_preset_apply_defaults (DsBenchSpec    *spec,
                          const DsPreset *preset)
{
  DsMarkOptions *o = ds_mark_options (spec);

  g_free (o->preset);
  o->preset = g_strdup (preset->name);
  spec->duration_ns = preset->duration_ns;
  o->count = preset->count;
  o->warmup_ns = preset->warmup_ns;
  o->pause_ns = preset->pause_ns;
  o->test_size_bytes = preset->test_size_bytes;
  if (preset->size_from_ram)
    {
      long pages = sysconf (_SC_PHYS_PAGES);
      long page_size = sysconf (_SC_PAGESIZE);
      uint64_t ram = pages > 0 && page_size > 0 ? (uint64_t) pages * (uint64_t) page_size : 0;

      /* A quarter more than RAM, in whole GiB. */
      o->test_size_bytes = CLAMP ((ram + ram / 4 + GIB - 1) / GIB * GIB,
                                  DS_LIMIT_TEST_SIZE_MIN, DS_LIMIT_TEST_SIZE_MAX);
    }
}

static gboolean
step_selected (const DsPresetStep *step,
               char *const        *wanted,
               gboolean           *used)
{
  if (wanted == NULL)
    return TRUE;

  for (unsigned i = 0; wanted[i] != NULL; i++)
    if (g_ascii_strcasecmp (wanted[i], step->row->id) == 0 ||
        g_ascii_strcasecmp (wanted[i], step->id) == 0)
      {
        used[i] = TRUE;
        return TRUE;
      }

  return FALSE;
}

static void
add_step (GArray            *steps,
          const DsPreset    *preset,
          unsigned           row_index,
          DsMarkDirection    direction,
          const DsBenchSpec *spec,
          char *const       *wanted,
          gboolean          *used)
{
  const DsMarkOptions *o = ds_mark_options_const (spec);
  const DsPresetRow *row = &preset->rows[row_index];
  DsPresetStep step = { .row = row, .row_index = row_index, .direction = direction };
  unsigned columns = row->columns;

  if (preset->mix_allowed && o->mix_percent >= 0)
    columns |= DS_MARK_COLUMN (DS_MARK_MIX);
  if (!(columns & DS_MARK_COLUMN (direction)))
    return;

  switch (direction)
    {
    case DS_MARK_READ:
      step.read_percent = 100;
      break;
    case DS_MARK_WRITE:
      step.read_percent = 0;
      break;
    case DS_MARK_MIX:
    case DS_MARK_N_DIRECTIONS:
    default:
      step.read_percent = (row->columns & DS_MARK_COLUMN (DS_MARK_MIX)) ?
                          row->mix_percent : (unsigned) o->mix_percent;
      break;
    }
  g_snprintf (step.id, sizeof step.id, "%s-%s", row->id, ds_mark_direction_to_string (direction));

  if (o->reads_only && step.read_percent < 100)
    return;
  if (step_selected (&step, wanted, used))
    g_array_append_val (steps, step);
}

GArray *
ds_preset_steps (const DsBenchSpec  *spec,
                 GError            **error)
{
  const DsMarkOptions *o = ds_mark_options_const (spec);
  const DsPreset *preset = ds_preset_for_spec (spec, error);
  g_autoptr (GArray) steps = NULL;
  g_auto (GStrv) wanted = NULL;
  g_autofree gboolean *used = NULL;

  if (preset == NULL)
    return NULL;

  if (o->steps != NULL && o->steps[0] != '\0')
    {
      wanted = g_strsplit (o->steps, ",", -1);
      for (unsigned i = 0; wanted[i] != NULL; i++)
        g_strstrip (wanted[i]);
      used = g_new0 (gboolean, g_strv_length (wanted));
    }

  steps = g_array_new (FALSE, TRUE, sizeof (DsPresetStep));
  if (preset->order == DS_PRESET_BY_DIRECTION)
    {
      for (unsigned d = 0; d < DS_MARK_N_DIRECTIONS; d++)
        for (unsigned r = 0; r < preset->n_rows; r++)
          add_step (steps, preset, r, (DsMarkDirection) d, spec, wanted, used);
    }
  else
    {
      for (unsigned r = 0; r < preset->n_rows; r++)
        for (unsigned d = 0; d < DS_MARK_N_DIRECTIONS; d++)
          add_step (steps, preset, r, (DsMarkDirection) d, spec, wanted, used);
    }

  for (unsigned i = 0; wanted != NULL && wanted[i] != NULL; i++)
    if (!used[i])
      {
        GString *ids = g_string_new (NULL);

        for (unsigned r = 0; r < preset->n_rows; r++)
          g_string_append_printf (ids, "%s%s", r ? ", " : "", preset->rows[r].id);
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("%s has no step “%s”%s: its rows are %s (a row id runs "
                     "the row; add -read, -write or -mix for one step)"),
                     preset->name, wanted[i],
                     o->reads_only ? " that only reads" : "", ids->str);
        g_string_free (ids, TRUE);
        return NULL;
      }

  if (steps->len == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s has no step that only reads: every one of its steps writes"),
                   preset->name);
      return NULL;
    }
  /* What a result file may hold (the loader's cap): more steps would be
   * saved as a result that does not load again. */
  if (steps->len > DS_LIMIT_MARK_STEPS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%u steps: at most %u in one run (DS_LIMIT_MARK_STEPS)"),
                   steps->len, DS_LIMIT_MARK_STEPS);
      return NULL;
    }

  return g_steal_pointer (&steps);
}

void
ds_preset_step_spec (const DsBenchSpec  *spec,
                     const DsPresetStep *step,
                     DsBenchSpec        *ret_spec)
{
  const DsPresetRow *row = step->row;

  ds_bench_spec_init (ret_spec, DS_BENCH_WORKLOAD);
  ret_spec->target_path = g_strdup (spec->target_path);
  ret_spec->destroy_data = g_strdup (spec->destroy_data);
  g_free (ret_spec->engine);
  ret_spec->engine = g_strdup (spec->engine);
  ret_spec->block_size_bytes = row->block_size_bytes;
  ret_spec->queue_depth = row->queue_depth;
  ret_spec->threads = row->threads;
  ret_spec->read_mix_percent = step->read_percent;
  ret_spec->write = step->read_percent < 100;
  if (step->read_percent == 100)
    ret_spec->pattern = row->random ? DS_PATTERN_RANDREAD : DS_PATTERN_READ;
  else if (step->read_percent == 0)
    ret_spec->pattern = row->random ? DS_PATTERN_RANDWRITE : DS_PATTERN_WRITE;
  else
    ret_spec->pattern = row->random ? DS_PATTERN_RANDRW : DS_PATTERN_RW;
  ret_spec->duration_ns = ds_preset_step_duration (spec, step);
  ret_spec->interval_ns = spec->interval_ns;
  ret_spec->seed = spec->seed;
  ret_spec->random_align_bytes = spec->random_align_bytes;
  ret_spec->span_bytes = ds_mark_options_const (spec)->test_size_bytes;
}

char *
ds_preset_row_cdm_name (const DsPresetRow *row)
{
  uint32_t bytes = row->block_size_bytes;
  gboolean mib = bytes % MIB == 0;
  gboolean kib = bytes % KIB == 0;

  return g_strdup_printf ("%s %4u%s (Q=%3u, T=%2u)", row->random ? "RND" : "SEQ",
                          mib ? bytes / MIB : kib ? bytes / KIB : bytes,
                          mib ? "MiB" : kib ? "KiB" : "B", row->queue_depth, row->threads);
}
