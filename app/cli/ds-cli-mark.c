/* ds-cli-mark.c: presets from the command line: `mark`, `workload --preset`
 * and `workload --list-presets`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ds-bench-mark.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-preset.h"
#include "ds-text.h"

typedef struct {
  gboolean mark;             /* the `mark` command (else workload --preset) */
  char    *preset;
  char   **row;              /* --row, repeated */
  char    *rows;             /* --rows "…;…" */
  gboolean list;
  char    *steps;
  gboolean reads_only;
  char    *size;
  char    *count;
  char    *duration;
  char    *warmup;
  char    *pause;
  char    *interval;
  char    *mix;
  char    *destroy_data;
  char    *engine;
  gboolean buffered;
  gint64   seed;
  char    *align;
  char    *comment;
  gboolean json;
  char    *output;
  char    *units;
  gboolean no_progress;
  gboolean no_library;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->preset);
  g_strfreev (o->row);
  g_free (o->rows);
  g_free (o->steps);
  g_free (o->size);
  g_free (o->count);
  g_free (o->duration);
  g_free (o->warmup);
  g_free (o->pause);
  g_free (o->interval);
  g_free (o->mix);
  g_free (o->destroy_data);
  g_free (o->engine);
  g_free (o->align);
  g_free (o->comment);
  g_free (o->output);
  g_free (o->units);
}

/* ---- --list-presets ------------------------------------------------------ */

static JsonNode *
preset_to_json (const DsPreset *preset)
{
  JsonObject *o = json_object_new ();
  JsonArray *rows = json_array_new ();
  JsonArray *steps = json_array_new ();
  g_autoptr (GArray) plan = NULL;
  DsBenchSpec spec;
  const DsMarkOptions *mark;

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_preset_apply_defaults (&spec, preset);
  mark = ds_mark_options_const (&spec);
  plan = ds_preset_steps (&spec, NULL);

  json_object_set_string_member (o, "name", preset->name);
  json_object_set_string_member (o, "title", preset->title);
  json_object_set_string_member (o, "source", preset->source);
  json_object_set_boolean_member (o, "mix_allowed", preset->mix_allowed);
  json_object_set_int_member (o, "test_size_bytes", (gint64) mark->test_size_bytes);
  json_object_set_int_member (o, "count", mark->count);
  json_object_set_double_member (o, "duration_s", (double) spec.duration_ns / 1e9);
  json_object_set_double_member (o, "warmup_s", (double) mark->warmup_ns / 1e9);
  json_object_set_double_member (o, "pause_s", (double) mark->pause_ns / 1e9);
  for (unsigned r = 0; r < preset->n_rows; r++)
    {
      JsonObject *row = json_object_new ();

      json_object_set_string_member (row, "id", preset->rows[r].id);
      json_object_set_string_member (row, "label", preset->rows[r].label);
      json_object_set_boolean_member (row, "random", preset->rows[r].random);
      json_object_set_int_member (row, "block_size_bytes", preset->rows[r].block_size_bytes);
      json_object_set_int_member (row, "queue_depth", preset->rows[r].queue_depth);
      json_object_set_int_member (row, "threads", preset->rows[r].threads);
      json_array_add_object_element (rows, row);
    }
  json_object_set_array_member (o, "rows", rows);
  for (guint i = 0; plan != NULL && i < plan->len; i++)
    {
      const DsPresetStep *def = &g_array_index (plan, DsPresetStep, i);
      JsonObject *step = json_object_new ();
      DsBenchSpec step_spec;

      ds_preset_step_spec (&spec, def, &step_spec);
      json_object_set_string_member (step, "id", def->id);
      json_object_set_string_member (step, "row", def->row->id);
      json_object_set_string_member (step, "direction", ds_mark_direction_to_string (def->direction));
      json_object_set_string_member (step, "pattern", ds_pattern_to_string (step_spec.pattern));
      json_object_set_int_member (step, "block_size_bytes", def->row->block_size_bytes);
      json_object_set_int_member (step, "queue_depth", def->row->queue_depth);
      json_object_set_int_member (step, "threads", def->row->threads);
      json_object_set_int_member (step, "read_percent", def->read_percent);
      json_array_add_object_element (steps, step);
      ds_bench_spec_clear (&step_spec);
    }
  json_object_set_array_member (o, "steps", steps);
  ds_bench_spec_clear (&spec);

  return ds_json_node_take_object (o);
}

static void
preset_to_text (const DsPreset *preset,
                GString        *out)
{
  g_autoptr (GArray) plan = NULL;
  g_autofree char *size = NULL;
  DsBenchSpec spec;
  const DsMarkOptions *mark;

  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  ds_preset_apply_defaults (&spec, preset);
  mark = ds_mark_options_const (&spec);
  plan = ds_preset_steps (&spec, NULL);
  size = mark->test_size_bytes != 0 ? ds_mark_size_text (mark->test_size_bytes) :
         g_strdup ("the whole device (1 GiB in a folder)");

  g_string_append_printf (out, "%-16s %s\n%-16s from %s\n%-16s rows:", preset->name,
                          preset->title, "", preset->source, "");
  for (unsigned r = 0; r < preset->n_rows; r++)
    g_string_append_printf (out, "%s %s", r ? "," : "", preset->rows[r].id);
  g_string_append_printf (out, "\n%-16s %u steps (%s), %s, %u × %g s per step",
                          "", plan ? plan->len : 0,
                          preset->order == DS_PRESET_BY_DIRECTION ? "every read, then every write" :
                          "row after row", size, mark->count, (double) spec.duration_ns / 1e9);
  if (mark->warmup_ns > 0)
    g_string_append_printf (out, " after a %g s warm-up", (double) mark->warmup_ns / 1e9);
  if (mark->pause_ns > 0)
    g_string_append_printf (out, ", %g s between steps", (double) mark->pause_ns / 1e9);
  g_string_append_printf (out, "%s\n", preset->mix_allowed ? "; --mix adds a +Mix column" : "");
  ds_bench_spec_clear (&spec);
}

static int
list_presets (gboolean json)
{
  if (json)
    {
      g_autoptr (JsonNode) root = json_node_new (JSON_NODE_ARRAY);
      JsonArray *array = json_array_new ();
      g_autofree char *text = NULL;

      for (unsigned i = 0; i < ds_preset_count (); i++)
        json_array_add_element (array, preset_to_json (ds_preset_get (i)));
      json_node_take_array (root, array);
      text = ds_json_to_generator_text (root);
      fputs (text, stdout);
    }
  else
    {
      g_autoptr (GString) out = g_string_new (NULL);

      for (unsigned i = 0; i < ds_preset_count (); i++)
        {
          if (i > 0)
            g_string_append_c (out, '\n');
          preset_to_text (ds_preset_get (i), out);
        }
      fputs (out->str, stdout);
    }

  return DS_CLI_OK;
}

/* ---- a preset run -------------------------------------------------------- */

/* A whole number ("70", "5"); its range is the spec's rule. */
static gboolean
parse_whole (const char  *text,
             const char  *option,
             const char  *what,
             int         *ret,
             GError     **error)
{
  guint64 v;

  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT, &v, NULL))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("--%s is %s, not “%s”"),
                   option, what, text);
      return FALSE;
    }
  *ret = (int) v;

  return TRUE;
}

/* Fills @spec (initialised as a mark) from the options. */
static gboolean
build_spec (Options      *o,
            const char   *target,
            DsBenchSpec  *spec,
            GError      **error)
{
  DsMarkOptions *mark = ds_mark_options (spec);
  const DsPreset *preset;
  /* The sizes and times, each into its field. */
  const struct { const char *option; const char *text; gboolean is_size; uint64_t *field; } measures[] = {
    { "size", o->size, TRUE, &mark->test_size_bytes },
    { "duration", o->duration, FALSE, &spec->duration_ns },
    { "warmup", o->warmup, FALSE, &mark->warmup_ns },
    { "pause", o->pause, FALSE, &mark->pause_ns },
    { "interval", o->interval, FALSE, &spec->interval_ns },
  };
  int count = 0;

  if (o->row != NULL || o->rows != NULL)
    {
      g_autofree char *joined = o->row != NULL ? g_strjoinv (";", o->row) : NULL;
      g_autofree char *all = g_strjoin (";", o->rows ? o->rows : "", joined ? joined : "", NULL);

      g_free (mark->rows);
      mark->rows = ds_preset_rows_normalize (all, error);
      if (mark->rows == NULL)
        {
          g_prefix_error (error, _("--row: "));
          return FALSE;
        }
    }
  preset = ds_preset_for_spec (spec, NULL);
  if (mark->rows == NULL)
    preset = ds_preset_lookup (o->preset);
  if (preset == NULL)
    {
      g_autofree char *names = ds_preset_names ();

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("unknown preset “%s”: use %s "
                   "(--list-presets describes them)"), o->preset, names);
      return FALSE;
    }
  ds_preset_apply_defaults (spec, preset);

  spec->target_path = g_strdup (target);
  spec->destroy_data = g_strdup (o->destroy_data);
  if (o->engine != NULL)
    {
      g_free (spec->engine);
      spec->engine = g_strdup (o->engine);
    }
  mark->steps = g_strdup (o->steps);
  mark->reads_only = o->reads_only;
  spec->buffered = o->buffered;
  spec->seed = (uint64_t) o->seed;
  mark->comment = g_strdup (o->comment);
  if (o->align != NULL && !ds_parse_random_align (o->align, &spec->random_align_bytes, error))
    {
      g_prefix_error (error, "--%s: ", "align");
      return FALSE;
    }

  for (unsigned i = 0; i < G_N_ELEMENTS (measures); i++)
    {
      g_autoptr (GError) local = NULL;
      gboolean ok;

      if (measures[i].text == NULL)
        continue;
      ok = measures[i].is_size ? ds_parse_size (measures[i].text, measures[i].field, &local) :
                                 ds_parse_duration (measures[i].text, measures[i].field, &local);
      if (!ok)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "--%s: %s", measures[i].option,
                       local->message);
          return FALSE;
        }
    }
  if (!parse_whole (o->mix, "mix", "the percentage of reads, 0 to 100 "
                    "(CrystalDiskMark's default: 70)", &mark->mix_percent, error) ||
      !parse_whole (o->count, "count", "the number of runs per step, 1 to 9", &count, error))
    return FALSE;
  if (o->count != NULL)
    mark->count = (unsigned) count;

  /* ds_cli_job_run() validates the spec, once. */
  return TRUE;
}

static GOptionEntry *
entries_for (Options *o)
{
  const GOptionEntry all[] = {
    { "preset", 'P', 0, G_OPTION_ARG_STRING, &o->preset, N_("The preset (mark: cdm-default)"), N_("NAME") },
    { "row", 'r', 0, G_OPTION_ARG_STRING_ARRAY, &o->row, N_("A custom row instead of a preset (repeat for more): PATTERN,BLOCK[,qdN][,tN][,mixN][,TIME], e.g. randread,4k,qd32,t4"), N_("ROW") },
    { "rows", 0, 0, G_OPTION_ARG_STRING, &o->rows, N_("Custom rows separated by “;”"), N_("ROWS") },
    { "list-presets", 0, 0, G_OPTION_ARG_NONE, &o->list, N_("Describe every preset and exit"), NULL },
    { "steps", 0, 0, G_OPTION_ARG_STRING, &o->steps, N_("Only these rows or steps (ids from --list-presets: rnd4k-q1t1, seq1m-q8t1-read)"), N_("IDS") },
    { "reads-only", 0, 0, G_OPTION_ARG_NONE, &o->reads_only, N_("Only the steps that read (no --destroy-data needed)"), NULL },
    { "size", 's', 0, G_OPTION_ARG_STRING, &o->size, N_("Test size: the region of a device or the test file in a folder, 16M to 64G (CrystalDiskMark: 1G)"), N_("SIZE") },
    { "count", 'n', 0, G_OPTION_ARG_STRING, &o->count, N_("Measured runs per step, the best kept, 1 to 9 (CrystalDiskMark: 5)"), "N" },
    { "duration", 'd', 0, G_OPTION_ARG_STRING, &o->duration, N_("Time per run (CrystalDiskMark's Measure: 5s)"), N_("TIME") },
    { "warmup", 0, 0, G_OPTION_ARG_STRING, &o->warmup, N_("Unmeasured run before each step (CrystalDiskMark: 5s)"), N_("TIME") },
    { "pause", 0, 0, G_OPTION_ARG_STRING, &o->pause, N_("Idle time between steps (CrystalDiskMark's Interval: 5s)"), N_("TIME") },
    { "interval", 0, 0, G_OPTION_ARG_STRING, &o->interval, N_("Series: one point per TIME (default 1s, at least 100ms)"), N_("TIME") },
    { "mix", 0, 0, G_OPTION_ARG_STRING, &o->mix, N_("Add CrystalDiskMark's +Mix row with PERCENT reads (its default: 70)"), N_("PERCENT") },
    { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &o->destroy_data, N_("Confirm the write steps on a device by naming it again (DESTROYS ITS DATA)"), N_("TARGET") },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &o->engine, N_("I/O engine: auto (default), sync, io_uring, threads"), N_("ENGINE") },
    { "buffered", 0, 0, G_OPTION_ARG_NONE, &o->buffered, N_("In a folder: the page cache where O_DIRECT is refused (reported)"), NULL },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &o->seed, N_("Seed for random offsets and data (repeatable runs)"), "N" },
    { "align", 0, 0, G_OPTION_ARG_STRING, &o->align, DS_CLI_ALIGN_HELP, N_("block|SIZE") },
    { "comment", 0, 0, G_OPTION_ARG_STRING, &o->comment, N_("A comment for the result and the report"), N_("TEXT") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, N_("Print the result as JSON on stdout"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output, N_("Also save the JSON result to FILE"), N_("FILE") },
    { "units", 0, 0, G_OPTION_ARG_STRING, &o->units, o->mark ? N_("The table's figures: MB (MB/s, default), GB (GB/s), IOPS or us (µs)") : N_("Rates in MB/s (10^6, default) or MiB/s"), o->mark ? N_("UNITS") : N_("MB|MiB") },
    { "no-progress", 0, 0, G_OPTION_ARG_NONE, &o->no_progress, N_("No progress line on stderr"), NULL },
    { "no-library", 0, 0, G_OPTION_ARG_NONE, &o->no_library, N_("Do not save the result in the results library"), NULL },
    { NULL }
  };

  return g_memdup2 (all, sizeof all);
}

/* mark's text: CrystalDiskMark's table (in @data's units) and its Copy
 * text, under a line naming the device and the preset. */
static char *
mark_text (const DsResult *result,
           gpointer        data)
{
  const DsMarkData *mark = result->data;
  const DsPreset *preset = ds_preset_lookup (mark->preset);
  g_autofree char *grid = ds_mark_grid_text (result, *(const DsMarkUnits *) data);
  g_autofree char *cdm = ds_mark_cdm_text (result);
  /* The device's model and path (and a preset name from a file) are
   * printed escaped: a terminal must not act on them. */
  g_autofree char *version = ds_text_sanitize (result->tool_version);
  g_autofree char *model = ds_text_sanitize (result->target.model);
  g_autofree char *path = ds_text_sanitize (result->target.path ? result->target.path : "?");
  g_autofree char *name = ds_text_sanitize (mark->preset);

  return g_strdup_printf ("Diskscope %s: %s%s%s%s — %s\n\n%s\n%s", version, model,
                          result->target.model ? " (" : "", path,
                          result->target.model ? ")" : "",
                          preset ? preset->title :
                          g_strcmp0 (mark->preset, DS_PRESET_CUSTOM) == 0 ? "Custom rows" : name,
                          grid, cdm);
}

static int
run_preset (int       argc,
            char    **argv,
            gboolean  mark)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree GOptionEntry *entries = NULL;
  Options o = { .mark = mark };
  DsCliJobOptions job;
  DsMarkUnits mark_units = DS_MARK_UNITS_MB_S;
  DsBenchSpec spec;
  int status;

  context = g_option_context_new (mark ? N_("TARGET — CrystalDiskMark's test and its result text") :
                                  N_("TARGET --preset NAME — a preset's steps as one result"));
  entries = entries_for (&o);
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("TARGET is a device (write steps need --destroy-data=TARGET) or a folder\n"
    "(a test file of --size is made there and removed afterwards).\n"
    "Sizes: 16M, 1G, 64G (powers of 1024). Times: 500ms, 5s, 1m.\n"
    "MB/s = 10^6 bytes per second, as CrystalDiskMark.\n\n"
    "Custom rows (--row, repeated, or --rows \"ROW;ROW\") replace the preset's:\n"
    "  PATTERN,BLOCK[,qdN][,tN][,mixN][,TIME]\n"
    "PATTERN: read, write, randread, randwrite, randrw, rw (one column each),\n"
    "seq or rnd (a Read and a Write column, as CrystalDiskMark's rows).\n"
    "BLOCK: 512 to 1G, a multiple of the logical block size. qdN: queue depth\n"
    "per thread (1), tN: threads (1), also together as q32t4; queue depth x\n"
    "threads at most 32768. mixN: percent reads of randrw and rw (70).\n"
    "TIME: the row's own time per run (else --duration).\n"
    "  diskscope-cli mark /dev/sdX --row seq,1m,q8t1 --row randread,4k,qd32,t4\n"
    "      --row randrw,8k,qd4,t2,mix70,10s --destroy-data=/dev/sdX"));

  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    {
      options_clear (&o);
      return status;
    }
  if (o.list)
    {
      options_clear (&o);
      return list_presets (o.json);
    }
  if (o.preset != NULL && (o.row != NULL || o.rows != NULL))
    {
      options_clear (&o);
      return ds_cli_complain (DS_CLI_USAGE, _("%s: --preset or custom rows (--row, --rows), "
                                "not both"), argv[0]);
    }
  if (o.preset == NULL)
    o.preset = g_strdup (mark || o.row != NULL || o.rows != NULL ? "cdm-default" : NULL);
  if (o.preset == NULL || argc != 2)
    {
      options_clear (&o);
      return ds_cli_complain (DS_CLI_USAGE, _("%s needs exactly one device or folder%s (see --help)"),
                              argv[0], o.preset == NULL ? " and --preset" : "");
    }

  job = (DsCliJobOptions) {
    .json = o.json,
    .output = o.output,
    .progress = !o.no_progress,
    .no_library = o.no_library,
    .units = DS_UNITS_MB,
    .text = mark ? mark_text : NULL,
    .text_data = &mark_units,
  };
  ds_bench_spec_init (&spec, DS_BENCH_MARK);
  if ((mark && !ds_mark_units_from_string (o.units, &mark_units, &error)) ||
      (!mark && !ds_units_from_string (o.units, &job.units, &error)) ||
      !build_spec (&o, argv[1], &spec, &error))
    status = ds_cli_fail (error);
  else
    status = ds_cli_job_run (&spec, &job);

  ds_bench_spec_clear (&spec);
  options_clear (&o);
  return status;
}

int
ds_cli_mark (int    argc,
             char **argv)
{
  return run_preset (argc, argv, TRUE);
}

int
ds_cli_workload (int    argc,
                 char **argv)
{
  gboolean help = FALSE;

  /* With a preset the options are the presets'; else every workload's. */
  for (int i = 1; i < argc; i++)
    {
      if (g_str_has_prefix (argv[i], "--preset") || g_str_has_prefix (argv[i], "-P") ||
          g_str_has_prefix (argv[i], "--row") ||
          strcmp (argv[i], "--list-presets") == 0)
        return run_preset (argc, argv, FALSE);
      help |= strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0;
    }

  /* GOption's --help exits: the word on presets goes first. */
  if (help)
    printf (_("Presets: `workload TARGET --preset NAME` runs a named list of workloads\n"
            "(CrystalDiskMark's profiles, IOMeter, fio, sysbench); --list-presets\n"
            "describes them and `workload --preset NAME --help` lists their options.\n\n"));

  return ds_cli_run (argc, argv);
}
