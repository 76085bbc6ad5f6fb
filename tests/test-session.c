/* test-session.c: DsSession, the runs and results behind a window
 *
 * Unit suite: no root, no display.  The session is what scripts and tests
 * drive (start, stop, last error, save report, save and open results), so
 * all of it is checked here on a real run: the target is a regular file of
 * random data in the scratch folder, and a GMainLoop waits for the
 * session's signals.  Settings live in a memory backend.  Covers:
 *  - the schema is found in the build tree with GSETTINGS_SCHEMA_DIR unset
 *    and nothing installed (main() clears both before anything runs), and
 *    taken before an older one installed (the quick start's /usr/local);
 *  - the spec is built from the settings (accuracy and what it implies,
 *    block size, file size) and --accuracy overrides it;
 *  - a run: "run-started", samples on the main thread, "run-finished";
 *    the result and the saved report (in the units set) and JSON;
 *  - open: a saved result comes back off the main thread with the same
 *    report; a newer open overtakes an older one; a broken file changes
 *    nothing; opening is refused during a run;
 *  - stop, and a failing run's last error;
 *  - a write test is refused unless confirmed by the target's name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ds-bench-file.h"
#include "ds-bench-transfer.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-session.h"
#include "ds-settings.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)

/* What an open's callback was told. */
typedef struct {
  gboolean     done;
  DsBenchKind  kind;
  GError      *error;
} Opened;

typedef struct {
  GMainLoop   *loop;
  GThread     *main_thread;
  DsSession   *session;
  guint        n_started;
  DsBenchKind  started_kind;
  guint        n_batches;
  gboolean     got_samples;
  guint        n_off_thread;
  gboolean     finished;
  gboolean     success;
  gboolean     had_result;
  gboolean     stop_on_samples;
  guint        n_opened;
  Opened       open;
} Fixture;

static void
started_cb (DsSession         *session,
            guint              kind,
            const DsBenchSpec *spec,
            Fixture           *f)
{
  f->n_started++;
  f->started_kind = kind;
  ck_assert_int_eq (spec->kind, kind);
}

static void
samples_cb (DsSession *session,
            guint      kind,
            GArray    *samples,
            Fixture   *f)
{
  f->n_batches++;
  f->got_samples = TRUE;
  if (g_thread_self () != f->main_thread)
    f->n_off_thread++;
  if (f->stop_on_samples)
    g_main_loop_quit (f->loop);
}

static void
finished_cb (DsSession      *session,
             guint           kind,
             const DsResult *result,
             gboolean        success,
             Fixture        *f)
{
  f->finished = TRUE;
  f->success = success;
  f->had_result = result != NULL;
  ck_assert (result == NULL || result == ds_session_get_result (session, kind));
  g_main_loop_quit (f->loop);
}

static void
opened_cb (DsSession *session,
           guint      kind,
           Fixture   *f)
{
  f->n_opened++;
}

static gboolean
timeout_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

/* Runs the loop until *@flag is set, failing after @timeout_ms. */
static void
wait_for (Fixture        *f,
          const gboolean *flag,
          guint           timeout_ms,
          const char     *what)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!*flag && g_get_monotonic_time () < deadline)
    {
      g_autoptr(GSource) tick = g_timeout_source_new (100);

      g_source_set_callback (tick, timeout_cb, f->loop, NULL);
      g_source_attach (tick, NULL);
      g_main_loop_run (f->loop);
      g_source_destroy (tick);
    }
  ck_assert_msg (*flag, "%s did not happen within %u ms", what, timeout_ms);
}

static GSettings *
memory_settings (void)
{
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GError) error = NULL;
  GSettings *settings = ds_settings_new (backend, &error);

  ck_assert_msg (settings != NULL, "%s", error ? error->message : "");
  return settings;
}

static DsSession *
fixture_init (Fixture *f)
{
  g_autoptr(GSettings) settings = memory_settings ();

  *f = (Fixture) {
    .loop = g_main_loop_new (NULL, FALSE),
    .main_thread = g_thread_self (),
    .session = ds_session_new (settings),
    .started_kind = DS_BENCH_N_KINDS,
  };
  g_signal_connect (f->session, "run-started", G_CALLBACK (started_cb), f);
  g_signal_connect (f->session, "samples", G_CALLBACK (samples_cb), f);
  g_signal_connect (f->session, "run-finished", G_CALLBACK (finished_cb), f);
  g_signal_connect (f->session, "result-opened", G_CALLBACK (opened_cb), f);
  ds_session_set_accuracy (f->session, 1);

  return f->session;
}

static void
fixture_clear (Fixture *f)
{
  g_signal_handlers_disconnect_by_data (f->session, f);
  g_clear_object (&f->session);
  g_clear_pointer (&f->loop, g_main_loop_unref);
  g_clear_error (&f->open.error);
}

static void
open_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Opened *opened = user_data;

  g_clear_error (&opened->error);
  opened->kind = ds_session_open_result_finish (DS_SESSION (object), result, &opened->error);
  opened->done = TRUE;
}

static gboolean
open_result (Fixture    *f,
             const char *path)
{
  f->open.done = FALSE;
  ds_session_open_result_async (f->session, path, NULL, open_done_cb, &f->open);
  wait_for (f, &f->open.done, 10000, "opening the result");
  return f->open.error == NULL;
}

static void
run_to_end (Fixture     *f,
            DsBenchKind  kind,
            const char  *path)
{
  g_autoptr(GError) error = NULL;

  f->finished = FALSE;
  ck_assert_msg (ds_session_start_kind (f->session, kind, path, &error), "%s",
                 error ? error->message : "");
  ck_assert (ds_session_is_running (f->session));
  ck_assert_int_eq (ds_session_get_running_kind (f->session), kind);
  wait_for (f, &f->finished, 60000, "the end of the run");
  ck_assert (!ds_session_is_running (f->session));
}

/* ---- Settings and specs ------------------------------------------------ */

START_TEST (test_schema_from_build_tree)
{
  GSettingsSchemaSource *installed = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;

  /* Nothing installed and no GSETTINGS_SCHEMA_DIR (see main()): without
   * the build tree's schema GSettings would abort here. */
  ck_assert_ptr_null (g_getenv ("GSETTINGS_SCHEMA_DIR"));
  if (installed != NULL)
    schema = g_settings_schema_source_lookup (installed, APPLICATION_ID, TRUE);
  ck_assert_msg (schema == NULL, "the schema is installed: this test proves nothing");

  settings = memory_settings ();
  ck_assert_uint_eq (g_settings_get_uint (settings, "accuracy"), DS_BENCH_DEFAULT_ACCURACY);
}
END_TEST

/* An installed schema of an older version (a key fewer) does not hide
 * the build tree's own from the binary built there. */
START_TEST (test_build_tree_before_installed)
{
  g_autofree char *share = g_build_filename (ds_test_scratch_dir (), "share", NULL);
  g_autofree char *dir = g_build_filename (share, "glib-2.0", "schemas", NULL);
  g_autofree char *xml = g_build_filename (dir, APPLICATION_ID ".gschema.xml", NULL);
  const char *compile[] = { "glib-compile-schemas", dir, NULL };
  GSettingsSchemaSource *installed;
  g_autoptr(GSettingsSchema) stale = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0755), 0);
  ck_assert (g_file_set_contents (xml,
    "<schemalist><schema id=\"" APPLICATION_ID "\" path=\"/io/github/diskscope/Diskscope/\">"
    "<key name=\"accuracy\" type=\"u\"><default>3</default></key>"
    "</schema></schemalist>", -1, NULL));
  ds_test_run_ok (compile);
  g_setenv ("XDG_DATA_DIRS", share, TRUE);

  installed = g_settings_schema_source_get_default ();
  ck_assert_ptr_nonnull (installed);
  stale = g_settings_schema_source_lookup (installed, APPLICATION_ID, TRUE);
  ck_assert_msg (stale != NULL && !g_settings_schema_has_key (stale, "units"),
                 "the stale schema is not what GLib finds installed");

  settings = memory_settings ();
  g_object_get (settings, "settings-schema", &schema, NULL);
  ck_assert_msg (g_settings_schema_has_key (schema, "units"),
                 "the binary in the build tree took the older installed schema");
}
END_TEST

START_TEST (test_spec_from_settings)
{
  g_autoptr(GSettings) settings = memory_settings ();
  g_autoptr(DsSession) session = ds_session_new (settings);
  DsBenchSpec spec;

  g_settings_set_uint (settings, "accuracy", 2);
  g_settings_set_uint64 (settings, "block-size", 1 * MiB);
  g_settings_set_uint64 (settings, "file-size", 256 * MiB);

  ds_session_init_spec (session, &spec, DS_BENCH_TRANSFER, "/dev/null");
  ck_assert_uint_eq (spec.accuracy, 2);
  ck_assert_uint_eq (spec.block_size_bytes, 1 * MiB);
  ck_assert_str_eq (spec.target_path, "/dev/null");
  ds_bench_spec_clear (&spec);
  /* The file size is the File Benchmark's own. */
  ds_session_init_spec (session, &spec, DS_BENCH_FILE, "/dev/null");
  ck_assert_uint_eq (ds_file_options (&spec)->size_bytes, 256 * MiB);
  ds_bench_spec_clear (&spec);

  /* The table kinds' time per row follows the accuracy (core's rule). */
  ds_session_set_accuracy (session, 1);
  ds_session_init_spec (session, &spec, DS_BENCH_EXTRA, NULL);
  ck_assert_uint_eq (spec.accuracy, 1);
  ck_assert_uint_eq (spec.duration_ns, 250 * G_GUINT64_CONSTANT (1000000));
  ck_assert_ptr_null (spec.target_path);
  ds_bench_spec_clear (&spec);

  ds_session_set_accuracy (session, 0);
  ds_session_init_spec (session, &spec, DS_BENCH_TRANSFER, NULL);
  ck_assert_uint_eq (spec.accuracy, 2);
  ds_bench_spec_clear (&spec);

  ck_assert (ds_session_kind_needs_device (DS_BENCH_TRANSFER));
  ck_assert (!ds_session_kind_needs_device (DS_BENCH_FILE));

  /* A spec the core refuses is refused before anything starts, with the
   * core's message. */
  ds_session_init_spec (session, &spec, DS_BENCH_TRANSFER, "/dev/null");
  spec.accuracy = 9;
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GError) core_error = NULL;

    ck_assert (!ds_bench_spec_validate (&spec, &core_error));
    ck_assert (!ds_session_start (session, &spec, &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
    ck_assert_str_eq (error->message, core_error->message);
    ck_assert (!ds_session_is_running (session));
  }
  ds_bench_spec_clear (&spec);
}
END_TEST

/* Short-stroking from the window: Preferences' "Capacity Tested" (the
 * "capacity" key) goes into the specs of the kinds that read across the
 * device, as diskscope-cli's --capacity, and a run reads only that far. */
START_TEST (test_capacity_setting)
{
  static const DsBenchKind across[] = {
    DS_BENCH_TRANSFER, DS_BENCH_EXTRA, DS_BENCH_RANDOM_ACCESS, DS_BENCH_BLOCK_SIZE,
  };
  g_autofree char *target = ds_test_make_file ("short.img", 16 * MiB, 5);
  const DsResult *result;
  const DsTransferData *data;
  DsBenchSpec spec;
  Fixture f;

  fixture_init (&f);
  g_settings_set_uint64 (ds_session_get_settings (f.session), "capacity", 4 * MiB);
  for (guint i = 0; i < G_N_ELEMENTS (across); i++)
    {
      ds_session_init_spec (f.session, &spec, across[i], target);
      ck_assert_uint_eq (spec.capacity_bytes, 4 * MiB);
      ds_bench_spec_clear (&spec);
    }
  ds_session_init_spec (f.session, &spec, DS_BENCH_FILE, NULL);
  ck_assert_uint_eq (spec.capacity_bytes, 0);
  ds_bench_spec_clear (&spec);

  ds_session_set_accuracy (f.session, 1);
  run_to_end (&f, DS_BENCH_TRANSFER, target);
  result = ds_session_get_result (f.session, DS_BENCH_TRANSFER);
  ck_assert_ptr_nonnull (result);
  ck_assert_uint_eq (result->spec.capacity_bytes, 4 * MiB);
  data = result->data;
  ck_assert_uint_gt (data->read.points->len, 0);
  for (guint i = 0; i < data->read.points->len; i++)
    ck_assert_uint_lt (g_array_index (data->read.points, DsTransferPoint, i).offset_bytes, 4 * MiB);
  fixture_clear (&f);
}
END_TEST

/* ---- A run, saved and opened again ------------------------------------- */

START_TEST (test_run_save_open)
{
  g_autofree char *target = ds_test_make_file ("session.img", 16 * MiB, 3);
  g_autofree char *report_path = g_build_filename (ds_test_scratch_dir (), "report.txt", NULL);
  g_autofree char *json_path = g_build_filename (ds_test_scratch_dir (), "result.json", NULL);
  g_autofree char *broken_path = g_build_filename (ds_test_scratch_dir (), "broken.json", NULL);
  g_autofree char *saved = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *reopened = NULL;
  g_autoptr(GError) error = NULL;
  const DsResult *result;
  const DsResult *opened;
  Fixture f, other;

  fixture_init (&f);

  /* Nothing to save yet. */
  ck_assert (!ds_session_save_report (f.session, DS_BENCH_TRANSFER, report_path, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
  g_clear_error (&error);

  run_to_end (&f, DS_BENCH_TRANSFER, target);
  ck_assert_uint_eq (f.n_started, 1);
  ck_assert_int_eq (f.started_kind, DS_BENCH_TRANSFER);
  ck_assert_uint_ge (f.n_batches, 1);
  ck_assert_uint_eq (f.n_off_thread, 0);
  ck_assert_msg (f.success, "the run failed: %s", ds_session_get_last_error (f.session));
  ck_assert (f.had_result);
  ck_assert_ptr_null (ds_session_get_last_error (f.session));
  result = ds_session_get_result (f.session, DS_BENCH_TRANSFER);
  ck_assert_ptr_nonnull (result);
  ck_assert (result->complete);
  ck_assert_ptr_null (ds_session_get_result (f.session, DS_BENCH_EXTRA));

  /* The report, in the units of the settings. */
  g_settings_set_enum (ds_session_get_settings (f.session), "units", 1);
  ck_assert_int_eq (ds_session_get_units (f.session), DS_UNITS_MIB);
  expected = ds_report_text (result, DS_UNITS_MIB);
  ck_assert_msg (strstr (expected, "MiB/s") != NULL, "%s", expected);
  ck_assert_msg (ds_session_save_report (f.session, DS_BENCH_TRANSFER, report_path, &error), "%s",
                 error ? error->message : "");
  ck_assert (g_file_get_contents (report_path, &saved, NULL, NULL));
  ck_assert_str_eq (saved, expected);

  /* The JSON result, opened in another session: the same run. */
  ck_assert_msg (ds_session_save_result (f.session, DS_BENCH_TRANSFER, json_path, &error), "%s",
                 error ? error->message : "");
  fixture_init (&other);
  g_settings_set_enum (ds_session_get_settings (other.session), "units", 1);
  ck_assert_msg (open_result (&other, json_path), "%s", other.open.error->message);
  ck_assert_int_eq (other.open.kind, DS_BENCH_TRANSFER);
  ck_assert_uint_eq (other.n_opened, 1);
  opened = ds_session_get_result (other.session, DS_BENCH_TRANSFER);
  ck_assert_ptr_nonnull (opened);
  reopened = ds_session_get_report (other.session, DS_BENCH_TRANSFER, &error);
  ck_assert_str_eq (reopened, expected);

  /* Saves never replace what they are made of: the opened file (by any
   * page's save), nor the run's target. */
  {
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;
    g_autofree char *target_before = ds_test_checksum (target);
    g_autofree char *target_after = NULL;

    ck_assert (g_file_get_contents (json_path, &before, NULL, NULL));
    ck_assert (!ds_session_save_report (other.session, DS_BENCH_TRANSFER, json_path, &error));
    ck_assert_msg (strstr (error->message, "one of the inputs") != NULL, "%s", error->message);
    g_clear_error (&error);
    ck_assert (!ds_session_save_result (other.session, DS_BENCH_TRANSFER, json_path, &error));
    ck_assert_msg (strstr (error->message, "one of the inputs") != NULL, "%s", error->message);
    g_clear_error (&error);
    ck_assert (g_file_get_contents (json_path, &after, NULL, NULL));
    ck_assert_str_eq (before, after);

    ck_assert (!ds_session_save_report (f.session, DS_BENCH_TRANSFER, target, &error));
    ck_assert_msg (strstr (error->message, "own target") != NULL, "%s", error->message);
    g_clear_error (&error);
    target_after = ds_test_checksum (target);
    ck_assert_str_eq (target_before, target_after);
  }

  /* A broken file: a clear error, and the result stays. */
  ck_assert (g_file_set_contents (broken_path, "{\"schema\": \"diskscope-result/1\", ", -1, NULL));
  ck_assert (!open_result (&other, broken_path));
  ck_assert (g_error_matches (other.open.error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert (ds_session_get_result (other.session, DS_BENCH_TRANSFER) == opened);
  ck_assert_uint_eq (other.n_opened, 1);

  fixture_clear (&other);
  fixture_clear (&f);
}
END_TEST

/* Opening happens on a worker: nothing changes before the main loop runs
 * again, and of two opens in a row only the newer one lands. */
START_TEST (test_open_async)
{
  g_autofree char *target = ds_test_make_file ("session.img", 16 * MiB, 4);
  g_autofree char *json_path = g_build_filename (ds_test_scratch_dir (), "result.json", NULL);
  g_autoptr(GError) error = NULL;
  Opened older = { 0 }, newer = { 0 };
  Fixture f, other;

  fixture_init (&f);
  run_to_end (&f, DS_BENCH_TRANSFER, target);
  ck_assert (ds_session_save_result (f.session, DS_BENCH_TRANSFER, json_path, &error));

  fixture_init (&other);
  ds_session_open_result_async (other.session, json_path, NULL, open_done_cb, &older);
  ds_session_open_result_async (other.session, json_path, NULL, open_done_cb, &newer);
  /* Not applied yet: the loads are on workers. */
  ck_assert_ptr_null (ds_session_get_result (other.session, DS_BENCH_TRANSFER));
  ck_assert_uint_eq (other.n_opened, 0);

  wait_for (&other, &older.done, 10000, "the older open");
  wait_for (&other, &newer.done, 10000, "the newer open");
  ck_assert_msg (g_error_matches (older.error, G_IO_ERROR, G_IO_ERROR_CANCELLED),
                 "the overtaken open said: %s", older.error ? older.error->message : "nothing");
  ck_assert_msg (newer.error == NULL, "%s", newer.error ? newer.error->message : "");
  ck_assert_int_eq (newer.kind, DS_BENCH_TRANSFER);
  ck_assert_uint_eq (other.n_opened, 1);
  ck_assert_ptr_nonnull (ds_session_get_result (other.session, DS_BENCH_TRANSFER));

  g_clear_error (&older.error);
  fixture_clear (&other);
  fixture_clear (&f);
}
END_TEST

/* ---- Stop, failure, busy ----------------------------------------------- */

START_TEST (test_stop_and_busy)
{
  g_autofree char *target = ds_test_make_file ("session.img", 16 * MiB, 5);
  g_autofree char *json_path = g_build_filename (ds_test_scratch_dir (), "result.json", NULL);
  g_autoptr(GError) error = NULL;
  const DsResult *result;
  Fixture f;

  fixture_init (&f);
  run_to_end (&f, DS_BENCH_TRANSFER, target);
  ck_assert (ds_session_save_result (f.session, DS_BENCH_TRANSFER, json_path, &error));

  /* Accuracy 5: the access-time phase alone takes 8 s. */
  ds_session_set_accuracy (f.session, 5);
  f.finished = FALSE;
  f.stop_on_samples = TRUE;
  ck_assert (ds_session_start_kind (f.session, DS_BENCH_TRANSFER, target, &error));

  /* Busy: a second run and an open are refused while this one goes. */
  ck_assert (!ds_session_start_kind (f.session, DS_BENCH_EXTRA, target, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_BUSY));
  g_clear_error (&error);
  ck_assert (!open_result (&f, json_path));
  ck_assert (g_error_matches (f.open.error, DS_ERROR, DS_ERROR_BUSY));

  wait_for (&f, &f.got_samples, 30000, "the first samples");
  f.stop_on_samples = FALSE;
  ck_assert (!f.finished);
  ds_session_stop (f.session);
  wait_for (&f, &f.finished, 5000, "the end of the stopped run");

  /* Stopped is not failed: no error to show, the partial result kept. */
  ck_assert (!f.success);
  ck_assert_ptr_null (ds_session_get_last_error (f.session));
  result = ds_session_get_result (f.session, DS_BENCH_TRANSFER);
  ck_assert (result != NULL && result->cancelled);

  fixture_clear (&f);
}
END_TEST

START_TEST (test_failure_last_error)
{
  g_autofree char *missing = g_build_filename (ds_test_scratch_dir (), "no-such-disk", NULL);
  Fixture f;

  fixture_init (&f);
  run_to_end (&f, DS_BENCH_TRANSFER, missing);
  ck_assert (!f.success);
  ck_assert_ptr_nonnull (ds_session_get_last_error (f.session));
  ck_assert_msg (strstr (ds_session_get_last_error (f.session), missing) != NULL,
                 "the error does not name %s: %s", missing, ds_session_get_last_error (f.session));

  fixture_clear (&f);
}
END_TEST

/* ---- Writes ------------------------------------------------------------ */

START_TEST (test_write_needs_confirmation)
{
  g_autofree char *target = ds_test_make_file ("session.img", 16 * MiB, 6);
  g_autofree char *before = ds_test_checksum (target);
  g_autofree char *after = NULL;
  g_autofree char *wrong = g_strconcat (target, ".other", NULL);
  g_autoptr(GError) error = NULL;
  DsBenchSpec spec;
  Fixture f;

  fixture_init (&f);
  ds_session_init_spec (f.session, &spec, DS_BENCH_TRANSFER, target);
  spec.write = TRUE;

  ck_assert_int_eq (ds_session_check_write (f.session, &spec, &error), DS_WRITE_CONFIRM);
  ck_assert_ptr_null (error);

  /* Not confirmed, or confirmed with another name: refused, not a byte
   * written. */
  ck_assert (!ds_session_start (f.session, &spec, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  ck_assert_msg (strstr (error->message, target) != NULL, "%s", error->message);
  g_clear_error (&error);
  spec.destroy_data = g_strdup (wrong);
  ck_assert (!ds_session_start (f.session, &spec, &error));
  g_clear_error (&error);
  ck_assert (!ds_session_is_running (f.session));
  ck_assert_uint_eq (f.n_started, 0);
  after = ds_test_checksum (target);
  ck_assert_str_eq (after, before);
  g_clear_pointer (&after, g_free);

  /* Confirmed by its name: the write runs. */
  g_free (spec.destroy_data);
  spec.destroy_data = g_strdup (target);
  f.finished = FALSE;
  ck_assert_msg (ds_session_start (f.session, &spec, &error), "%s", error ? error->message : "");
  wait_for (&f, &f.finished, 60000, "the end of the write run");
  ck_assert_msg (f.success, "%s", ds_session_get_last_error (f.session));
  ck_assert (ds_session_get_result (f.session, DS_BENCH_TRANSFER)->spec.write);
  after = ds_test_checksum (target);
  ck_assert_str_ne (after, before);

  ds_bench_spec_clear (&spec);
  fixture_clear (&f);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  /* As if run from a fresh checkout: no schema installed, none pointed
   * at.  The session must find the build tree's own. */
  g_unsetenv ("GSETTINGS_SCHEMA_DIR");
  g_setenv ("XDG_DATA_DIRS", "/nonexistent", TRUE);
  g_setenv ("XDG_DATA_HOME", "/nonexistent", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  ds_test_init ("session");
  /* The session keeps every run in the results library: in the scratch
   * folder, never under the XDG_DATA_HOME above (root could create it). */
  {
    g_autofree char *library = g_build_filename (ds_test_scratch_dir (), "results", NULL);

    g_setenv ("DISKSCOPE_RESULTS_DIR", library, TRUE);
  }

  suite = suite_create ("session");
  tc = tcase_create ("session");
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_schema_from_build_tree);
  tcase_add_test (tc, test_build_tree_before_installed);
  tcase_add_test (tc, test_spec_from_settings);
  tcase_add_test (tc, test_capacity_setting);
  tcase_add_test (tc, test_run_save_open);
  tcase_add_test (tc, test_open_async);
  tcase_add_test (tc, test_stop_and_busy);
  tcase_add_test (tc, test_failure_last_error);
  tcase_add_test (tc, test_write_needs_confirmation);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
