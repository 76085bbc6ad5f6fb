/* ds-smartctl.c: running smartctl for health and self-tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-smartctl.h"

#define POLL_MS 100

char *
ds_smartctl_find (GError **error)
{
  const char *env = g_getenv ("DISKSCOPE_SMARTCTL");
  static const char *const sbin[] = { "/usr/sbin/smartctl", "/sbin/smartctl" };
  char *path;

  if (env != NULL && env[0] != '\0')
    {
      if (g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
        return g_strdup (env);
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   _("smartctl is not installed (DISKSCOPE_SMARTCTL names %s, which is "
                   "not a program): health needs smartmontools"), env);
      return NULL;
    }

  path = g_find_program_in_path ("smartctl");
  if (path != NULL)
    return path;
  /* sbin is often not in a user's PATH. */
  for (guint i = 0; i < G_N_ELEMENTS (sbin); i++)
    if (g_file_test (sbin[i], G_FILE_TEST_IS_EXECUTABLE))
      return g_strdup (sbin[i]);

  g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
               _("smartctl is not installed: health needs smartmontools "
               "(Debian and Ubuntu: sudo apt install smartmontools; Fedora: "
               "sudo dnf install smartmontools)"));
  return NULL;
}

static gboolean
wake (gpointer user_data)
{
  return G_SOURCE_REMOVE;
}

typedef struct {
  gboolean  done;
  char     *out;
  GError   *error;
} Communicate;

static void
on_communicated (GObject      *source,
                 GAsyncResult *res,
                 gpointer      user_data)
{
  Communicate *c = user_data;
  GBytes *out = NULL;

  if (g_subprocess_communicate_finish (G_SUBPROCESS (source), res, &out, NULL, &c->error) &&
      out != NULL)
    c->out = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  g_clear_pointer (&out, g_bytes_unref);
  c->done = TRUE;
}

/* Starts @program with @args, its stdout piped, in the C locale. */
static GSubprocess *
spawn (const char         *program,
       const char *const  *args,
       GError            **error)
{
  g_autoptr (GPtrArray) argv = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GError) local = NULL;
  GSubprocess *proc;

  argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) program);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &local);
  if (proc == NULL)
    g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND, _("could not run %s: %s"),
                 program, local->message);

  return proc;
}

typedef enum {
  ENDED,
  TIMED_OUT,
  CANCELLED,
} Ending;

/* Reads @proc's output until it ends, killing it past @timeout_ns or on
 * *@cancel; reaps it. */
static Ending
communicate (GSubprocess *proc,
             uint64_t     timeout_ns,
             const gint  *cancel,
             Communicate *c)
{
  g_autoptr (GMainContext) context = NULL;
  uint64_t deadline;
  Ending ending = ENDED;

  /* A private context: this runs on any thread, never on the caller's
   * main loop. */
  context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  g_subprocess_communicate_async (proc, NULL, NULL, on_communicated, c);
  deadline = ds_clock_ns () + timeout_ns;
  while (!c->done)
    {
      GSource *tick = g_timeout_source_new (POLL_MS);

      g_source_set_callback (tick, wake, NULL, NULL);
      g_source_attach (tick, context);
      g_main_context_iteration (context, TRUE);
      g_source_destroy (tick);
      g_source_unref (tick);

      if (c->done)
        break;
      if (ending == ENDED && ds_clock_ns () >= deadline)
        {
          ending = TIMED_OUT;
          g_subprocess_force_exit (proc);
        }
      if (ending == ENDED && cancel != NULL && g_atomic_int_get (cancel))
        {
          ending = CANCELLED;
          g_subprocess_force_exit (proc);
        }
    }
  /* Reap it before the context goes. */
  g_subprocess_wait (proc, NULL, NULL);
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);

  return ending;
}

gboolean
ds_smartctl_run (const char *const *args,
                 uint64_t           timeout_ns,
                 const gint        *cancel,
                 char             **ret_stdout,
                 int               *ret_status,
                 GError           **error)
{
  g_autofree char *program = ds_smartctl_find (error);
  g_autoptr (GSubprocess) proc = NULL;
  Communicate c = { 0 };
  Ending ending;

  if (program == NULL)
    return FALSE;

  proc = spawn (program, args, error);
  if (proc == NULL)
    return FALSE;

  ending = communicate (proc, timeout_ns, cancel, &c);

  if (ending == CANCELLED)
    {
      g_free (c.out);
      g_clear_error (&c.error);
      g_set_error (error, DS_ERROR, DS_ERROR_CANCELLED, _("stopped by the user"));
      return FALSE;
    }
  if (ending == TIMED_OUT)
    {
      g_free (c.out);
      g_clear_error (&c.error);
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("smartctl did not finish within %.1f s and was "
                   "stopped (a drive that does not answer, or a hung bus)"),
                   (double) timeout_ns / 1e9);
      return FALSE;
    }
  if (c.error != NULL)
    {
      g_free (c.out);
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED, _("smartctl: %s"), c.error->message);
      g_clear_error (&c.error);
      return FALSE;
    }
  if (!g_subprocess_get_if_exited (proc))
    {
      g_free (c.out);
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED, _("smartctl was killed by signal %d"),
                   g_subprocess_get_term_sig (proc));
      return FALSE;
    }

  *ret_stdout = c.out != NULL ? c.out : g_strdup ("");
  *ret_status = g_subprocess_get_exit_status (proc);
  return TRUE;
}

DsHealth *
ds_smartctl_read_health (const char  *device,
                         uint64_t     timeout_ns,
                         const gint  *cancel,
                         GError     **error)
{
  const char *args[] = { "--json", "--xall", device, NULL };
  g_autofree char *out = NULL;
  int status = 0;

  if (!ds_smartctl_run (args, timeout_ns, cancel, &out, &status, error))
    return NULL;

  return ds_health_parse (out, -1, status, error);
}

/* Runs a smartctl command whose output only matters when it fails. */
static gboolean
run_command (const char  *device,
             const char  *what,
             const char  *const *args,
             GError     **error)
{
  g_autofree char *out = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (DsHealth) h = NULL;
  int status = 0;

  if (!ds_smartctl_run (args, DS_SMARTCTL_TIMEOUT_NS, NULL, &out, &status, error))
    return FALSE;
  if ((status & 0x7) == 0)
    return TRUE;

  /* The parser turns smartctl's messages into a plain error. */
  h = ds_health_parse (out, -1, status, &local);
  if (h == NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                  _("could not %s on %s: "), what, device);
      return FALSE;
    }
  if (h->messages->len > 0)
    {
      g_ptr_array_add (h->messages, NULL);
      {
        g_autofree char *said = g_strjoinv ("; ", (char **) h->messages->pdata);
        g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED, _("could not %s on %s: %s"),
                     what, device, said);
      }
      return FALSE;
    }
  g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
               _("could not %s on %s: the drive refused the command (smartctl exit status %d)"),
               what, device, status);
  return FALSE;
}

gboolean
ds_smartctl_start_self_test (const char      *device,
                             DsSelfTestKind   kind,
                             GError         **error)
{
  const char *args[] = { "--json", "--test", kind == DS_SELF_TEST_LONG ? "long" : "short",
                         device, NULL };

  return run_command (device, kind == DS_SELF_TEST_LONG ? "start an extended self-test" :
                      "start a short self-test", args, error);
}

gboolean
ds_smartctl_abort_self_test (const char  *device,
                             GError     **error)
{
  const char *args[] = { "--json", "--abort", device, NULL };

  return run_command (device, "abort the self-test", args, error);
}
