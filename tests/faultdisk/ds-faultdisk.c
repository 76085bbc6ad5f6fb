/* ds-faultdisk.c: the fault-injecting test disk, from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-faultdisk.h"
#include "ds-test-util.h"

struct _DsFaultDisk {
  char    *mountpoint;
  char    *file;
  char    *ctl;
  char    *pid_file;
  char    *device;
  GPid     pid;
};

/* Where the mountpoints go: the scratch folder of ds_test_init(), or our
 * own when a program uses this without it. */
static char *base_dir;
static gboolean inited;
static struct sigaction old_actions[NSIG];

static const char *
faultdisk_program (void)
{
  const char *path = g_getenv ("DS_FAULTDISK");

  return path != NULL && *path != '\0' ? path : DS_FAULTDISK_PATH;
}

gboolean
ds_faultdisk_available (char **ret_reason)
{
  const char *program = faultdisk_program ();

  if (*program == '\0' || !g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    {
      if (ret_reason != NULL)
        *ret_reason = g_strdup_printf ("the faultdisk program is not built (%s); "
                                       "it needs libfuse3-dev",
                                       *program ? program : "fuse3 not found");
      return FALSE;
    }
  if (access ("/dev/fuse", R_OK | W_OK) != 0)
    {
      if (ret_reason != NULL)
        *ret_reason = g_strdup_printf ("/dev/fuse: %s", g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static const char *
get_base_dir (void)
{
  if (base_dir == NULL)
    {
      const char *scratch = ds_test_scratch_dir ();

      if (scratch != NULL)
        base_dir = g_strdup (scratch);
      else
        base_dir = g_mkdtemp (g_strdup ("/var/tmp/ds-faultdisk-XXXXXX"));
      g_assert (base_dir != NULL);
    }
  return base_dir;
}

static int
run_quiet (const char *const *argv)
{
  return ds_test_run (argv, NULL, NULL);
}

static char *
read_text (const char *path)
{
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  return g_strstrip (contents);
}

/* Detaches every loop device whose backing file is under @prefix. */
static void
detach_loops_under (const char *prefix)
{
  g_autoptr (GDir) dir = g_dir_open ("/sys/block", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *attr = NULL;
      g_autofree char *backing = NULL;

      if (!g_str_has_prefix (name, "loop"))
        continue;
      attr = g_strdup_printf ("/sys/block/%s/loop/backing_file", name);
      backing = read_text (attr);
      if (backing != NULL && g_str_has_prefix (backing, prefix))
        {
          g_autofree char *dev = g_strdup_printf ("/dev/%s", name);
          const char *argv[] = { "losetup", "-d", dev, NULL };

          for (int i = 0; i < 25 && run_quiet (argv) != 0; i++)
            g_usleep (20000);
        }
    }
}

static gboolean
is_mounted (const char *mountpoint)
{
  g_autofree char *info = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/mountinfo", &info, NULL, NULL))
    return FALSE;
  lines = g_strsplit (info, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], " ", 6);

      if (g_strv_length (fields) >= 5 && g_strcmp0 (fields[4], mountpoint) == 0)
        return TRUE;
    }
  return FALSE;
}

static gboolean
process_alive (GPid pid)
{
  return pid > 0 && kill (pid, 0) == 0;
}

/* Waits up to @timeout_ms for @pid to go; reaps it when it is our child. */
static gboolean
wait_gone (GPid pid,
           int  timeout_ms)
{
  for (int waited = 0; waited <= timeout_ms; waited += 10)
    {
      int status;

      if (waitpid (pid, &status, WNOHANG) == pid)
        return TRUE;
      if (!process_alive (pid))
        return TRUE;
      g_usleep (10000);
    }
  return FALSE;
}

/* Detach, stop the server, unmount, remove the mountpoint: for a disk we
 * started (@pid known) or one found by the sweep. */
static void
teardown (const char *mountpoint,
          GPid        pid,
          const char *pid_file)
{
  g_autofree char *prefix = g_strconcat (mountpoint, "/", NULL);

  detach_loops_under (prefix);

  /* SIGTERM: the server leaves its loop and unmounts itself. */
  if (process_alive (pid))
    {
      kill (pid, SIGTERM);
      if (!wait_gone (pid, 3000))
        {
          kill (pid, SIGKILL);
          wait_gone (pid, 3000);
        }
    }
  if (is_mounted (mountpoint))
    {
      const char *fusermount[] = { "fusermount3", "-u", "-z", mountpoint, NULL };
      const char *umount[] = { "umount", "-l", mountpoint, NULL };

      if (run_quiet (fusermount) != 0)
        run_quiet (umount);
    }
  if (rmdir (mountpoint) != 0 && errno != ENOENT)
    g_printerr ("faultdisk: could not remove %s: %s\n", mountpoint, g_strerror (errno));
  if (pid_file != NULL)
    unlink (pid_file);
}

void
ds_faultdisk_cleanup_all (void)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;

  if (base_dir == NULL)
    return;

  dir = g_dir_open (base_dir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *pid_file = NULL;
      g_autofree char *pid_text = NULL;
      g_autofree char *mountpoint = NULL;

      if (!g_str_has_prefix (name, "faultdisk-") || !g_str_has_suffix (name, ".pid"))
        continue;
      pid_file = g_build_filename (base_dir, name, NULL);
      mountpoint = g_strndup (pid_file, strlen (pid_file) - strlen (".pid"));
      pid_text = read_text (pid_file);
      teardown (mountpoint, pid_text ? (GPid) atoi (pid_text) : 0, pid_file);
    }

  /* Filesystems a failed test left mounted in the folder (loop devices
   * under them are then detached by ds_test_cleanup()). */
  {
    g_autofree char *info = NULL;
    g_autofree char *prefix = g_strconcat (base_dir, "/", NULL);
    g_auto (GStrv) lines = NULL;

    if (g_file_get_contents ("/proc/self/mountinfo", &info, NULL, NULL))
      lines = g_strsplit (info, "\n", -1);
    for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
      {
        g_auto (GStrv) fields = g_strsplit (lines[i], " ", 6);

        if (g_strv_length (fields) >= 5 && g_str_has_prefix (fields[4], prefix))
          {
            const char *umount[] = { "umount", "-l", fields[4], NULL };

            run_quiet (umount);
          }
      }
  }
}

static void
on_fatal_signal (int signo)
{
  struct sigaction *old = &old_actions[signo];

  ds_faultdisk_cleanup_all ();

  /* Then whatever was there before (ds_test_util's cleanup). */
  if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL
      && old->sa_handler != SIG_IGN)
    {
      old->sa_handler (signo);
      return;
    }
  signal (signo, SIG_DFL);
  raise (signo);
}

void
ds_faultdisk_init (void)
{
  const int signals[] = { SIGINT, SIGTERM, SIGABRT, SIGSEGV };

  if (inited)
    return;
  inited = TRUE;
  get_base_dir ();
  /* atexit runs in reverse order: this runs before ds_test_cleanup()
   * removes the scratch folder. */
  atexit (ds_faultdisk_cleanup_all);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      struct sigaction action = { .sa_handler = on_fatal_signal };

      sigemptyset (&action.sa_mask);
      sigaction (signals[i], &action, &old_actions[signals[i]]);
    }
}

DsFaultDisk *
ds_faultdisk_new (uint64_t size_bytes,
                  uint64_t seed)
{
  static unsigned counter;
  g_autoptr (GError) error = NULL;
  g_autofree char *size_text = g_strdup_printf ("%" G_GUINT64_FORMAT, size_bytes);
  g_autofree char *seed_text = g_strdup_printf ("%" G_GUINT64_FORMAT, seed);
  DsFaultDisk *self;
  const char *argv[8];
  int i = 0;

  ds_faultdisk_init ();

  self = g_new0 (DsFaultDisk, 1);
  self->mountpoint = g_strdup_printf ("%s/faultdisk-%d-%u", get_base_dir (),
                                      (int) getpid (), counter++);
  self->file = g_build_filename (self->mountpoint, "disk", NULL);
  self->ctl = g_build_filename (self->mountpoint, "ctl", NULL);
  self->pid_file = g_strconcat (self->mountpoint, ".pid", NULL);
  if (g_mkdir_with_parents (self->mountpoint, 0700) != 0)
    g_error ("faultdisk: mkdir %s: %s", self->mountpoint, g_strerror (errno));

  argv[i++] = faultdisk_program ();
  argv[i++] = "--size";
  argv[i++] = size_text;
  argv[i++] = "--seed";
  argv[i++] = seed_text;
  argv[i++] = self->mountpoint;
  argv[i] = NULL;

  if (!g_spawn_async (NULL, (char **) argv, NULL,
                      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                      NULL, NULL, &self->pid, &error))
    g_error ("faultdisk: cannot start %s: %s", argv[0], error->message);

  {
    g_autofree char *pid_text = g_strdup_printf ("%d\n", (int) self->pid);
    g_file_set_contents (self->pid_file, pid_text, -1, NULL);
  }

  /* Mounted when the served file appears (the folder was empty). */
  for (int waited = 0;; waited += 10)
    {
      int status;

      if (g_file_test (self->file, G_FILE_TEST_EXISTS))
        break;
      if (waitpid (self->pid, &status, WNOHANG) == self->pid)
        {
          self->pid = 0;
          ds_faultdisk_free (self);
          g_error ("faultdisk: the server exited (status %d) before mounting", status);
        }
      if (waited > 5000)
        {
          ds_faultdisk_free (self);
          g_error ("faultdisk: not mounted after 5 s");
        }
      g_usleep (10000);
    }

  return self;
}

const char *
ds_faultdisk_get_file (DsFaultDisk *self)
{
  return self->file;
}

const char *
ds_faultdisk_get_device (DsFaultDisk *self)
{
  return self->device;
}

DsFaultDisk *
ds_faultdisk_start (uint64_t     size_bytes,
                    uint64_t     seed,
                    const char **ret_device)
{
  g_autofree char *reason = NULL;
  DsFaultDisk *self;

  if (!ds_faultdisk_available (&reason))
    g_error ("no fault-injecting disk: %s", reason);
  self = ds_faultdisk_new (size_bytes, seed);
  *ret_device = ds_faultdisk_attach (self, FALSE);
  return self;
}

const char *
ds_faultdisk_attach (DsFaultDisk *self,
                     gboolean     read_only)
{
  const char *argv[] = {
    "losetup", "--find", "--show", "--direct-io=on",
    read_only ? "--read-only" : self->file,
    read_only ? self->file : NULL,
    NULL,
  };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  g_assert (self->device == NULL);
  rc = ds_test_run (argv, &out, &err);
  if (rc != 0 || out == NULL || !g_str_has_prefix (g_strstrip (out), "/dev/"))
    g_error ("faultdisk: losetup %s failed (%d): %s", self->file, rc, err ? err : "");
  self->device = g_strdup (out);

  /* Let udev (where there is one) settle before the test uses it. */
  return self->device;
}

gboolean
ds_faultdisk_is_direct_io (DsFaultDisk *self)
{
  g_autofree char *attr = NULL;
  g_autofree char *value = NULL;

  if (self->device == NULL)
    return FALSE;
  attr = g_strdup_printf ("/sys/block/%s/loop/dio", self->device + strlen ("/dev/"));
  value = read_text (attr);
  return g_strcmp0 (value, "1") == 0;
}

gboolean
ds_faultdisk_detach (DsFaultDisk *self)
{
  const char *argv[] = { "losetup", "-d", self->device, NULL };

  if (self->device == NULL)
    return TRUE;
  for (int i = 0; i < 25; i++)
    {
      if (run_quiet (argv) == 0)
        {
          g_clear_pointer (&self->device, g_free);
          return TRUE;
        }
      g_usleep (20000);
    }
  return FALSE;
}

gboolean
ds_faultdisk_control (DsFaultDisk *self,
                      const char  *format,
                      ...)
{
  g_autofree char *line = NULL;
  va_list args;
  ssize_t n;
  int fd;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);

  fd = open (self->ctl, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    {
      g_printerr ("faultdisk: %s: %s\n", self->ctl, g_strerror (errno));
      return FALSE;
    }
  n = write (fd, line, strlen (line));
  if (n < 0)
    g_printerr ("faultdisk: \"%s\": %s\n", line, g_strerror (errno));
  close (fd);
  return n == (ssize_t) strlen (line);
}

uint64_t
ds_faultdisk_counter (DsFaultDisk *self,
                      const char  *name)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gsize name_len = strlen (name);

  /* g_file_get_contents would trust st_size; read it plainly. */
  {
    char buf[2048];
    ssize_t n;
    int fd = open (self->ctl, O_RDONLY | O_CLOEXEC);

    if (fd < 0)
      return G_MAXUINT64;
    n = read (fd, buf, sizeof buf - 1);
    close (fd);
    if (n < 0)
      return G_MAXUINT64;
    text = g_strndup (buf, (gsize) n);
  }

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strncmp (lines[i], name, name_len) == 0 && lines[i][name_len] == ' ')
      return g_ascii_strtoull (lines[i] + name_len + 1, NULL, 10);
  return G_MAXUINT64;
}

void
ds_faultdisk_free (DsFaultDisk *self)
{
  if (self == NULL)
    return;

  if (self->device != NULL)
    ds_faultdisk_detach (self);
  teardown (self->mountpoint, self->pid, self->pid_file);
  g_free (self->device);
  g_free (self->mountpoint);
  g_free (self->file);
  g_free (self->ctl);
  g_free (self->pid_file);
  g_free (self);
}

void
ds_faultdisk_kill (DsFaultDisk *self)
{
  if (self->pid > 0)
    {
      kill (self->pid, SIGKILL);
      wait_gone (self->pid, 3000);
      self->pid = 0;
    }
}

struct _DsFaultProc {
  GPid     pid;
  int      status;
  int64_t  end_us;
  char    *out_path;
  char    *err_path;
};

DsFaultProc *
ds_fault_proc_spawn (const char *const *argv)
{
  static unsigned counter;
  DsFaultProc *proc = g_new0 (DsFaultProc, 1);
  pid_t pid;

  proc->out_path = g_strdup_printf ("%s/proc-%d-%u.out", get_base_dir (), (int) getpid (), counter);
  proc->err_path = g_strdup_printf ("%s/proc-%d-%u.err", get_base_dir (), (int) getpid (), counter);
  counter++;

  fflush (stdout);
  fflush (stderr);
  pid = fork ();
  g_assert (pid >= 0);
  if (pid == 0)
    {
      int out = open (proc->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      int err = open (proc->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

      if (out < 0 || err < 0 || dup2 (out, 1) < 0 || dup2 (err, 2) < 0)
        _exit (127);
      /* The test's own handlers must not run in the program. */
      signal (SIGINT, SIG_DFL);
      signal (SIGTERM, SIG_DFL);
      execvp (argv[0], (char **) argv);
      _exit (127);
    }
  proc->pid = pid;
  return proc;
}

void
ds_fault_proc_signal (DsFaultProc *proc,
                      int          signo)
{
  if (proc->pid > 0 && proc->end_us == 0)
    kill (proc->pid, signo);
}

int
ds_fault_proc_wait (DsFaultProc *proc,
                    int          timeout_ms)
{
  int64_t deadline = g_get_monotonic_time () + (int64_t) timeout_ms * 1000;

  while (proc->end_us == 0)
    {
      int status;
      pid_t r = waitpid (proc->pid, &status, WNOHANG);

      if (r == proc->pid)
        {
          proc->end_us = g_get_monotonic_time ();
          proc->status = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
          break;
        }
      if (g_get_monotonic_time () > deadline)
        {
          kill (proc->pid, SIGKILL);
          waitpid (proc->pid, &status, 0);
          proc->end_us = g_get_monotonic_time ();
          proc->status = -2;
          break;
        }
      g_usleep (1000);
    }
  return proc->status;
}

int64_t
ds_fault_proc_end_time (DsFaultProc *proc)
{
  if (proc->end_us == 0)
    {
      int status;

      if (waitpid (proc->pid, &status, WNOHANG) == proc->pid)
        {
          proc->end_us = g_get_monotonic_time ();
          proc->status = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
        }
    }
  return proc->end_us;
}

char *
ds_fault_proc_stdout (DsFaultProc *proc)
{
  char *text = NULL;

  if (!g_file_get_contents (proc->out_path, &text, NULL, NULL))
    return g_strdup ("");
  return text;
}

char *
ds_fault_proc_stderr (DsFaultProc *proc)
{
  char *text = NULL;

  if (!g_file_get_contents (proc->err_path, &text, NULL, NULL))
    return g_strdup ("");
  return text;
}

void
ds_fault_proc_free (DsFaultProc *proc)
{
  if (proc == NULL)
    return;
  if (proc->end_us == 0)
    ds_fault_proc_wait (proc, 0);
  unlink (proc->out_path);
  unlink (proc->err_path);
  g_free (proc->out_path);
  g_free (proc->err_path);
  g_free (proc);
}

JsonNode *
ds_fault_json_parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  if (text == NULL || !json_parser_load_from_data (parser, text, -1, &error))
    {
      g_printerr ("not JSON (%s): %.400s\n", error ? error->message : "no text",
                  text ? text : "");
      return NULL;
    }
  return json_node_copy (json_parser_get_root (parser));
}

JsonNode *
ds_fault_json_get (JsonNode   *root,
                   const char *path)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);
  JsonNode *node = root;

  for (guint i = 0; node != NULL && parts[i] != NULL; i++)
    {
      JsonObject *object;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      object = json_node_get_object (node);
      node = json_object_get_member (object, parts[i]);
    }
  return node;
}
