/* ds-test-util.c: loop devices and temporary files for integration tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-buffer.h"
#include "ds-test-util.h"

static char *scratch_dir;
static char *ram_dir;           /* under /dev/shm */
static pid_t owner_pid;

/* A file of the suite's: in the scratch folder or the RAM folder. */
static gboolean
is_suite_file (const char *path)
{
  return path != NULL && (g_str_has_prefix (path, scratch_dir) ||
                          (ram_dir != NULL && g_str_has_prefix (path, ram_dir)));
}

const char *
ds_test_scratch_dir (void)
{
  return scratch_dir;
}

gboolean
ds_test_is_root (void)
{
  return geteuid () == 0;
}

void
ds_test_require_root (const char *why)
{
  if (ds_test_is_root ())
    return;

  /* TAP: a plan of zero tests with a reason is a skipped program. */
  printf ("1..0 # SKIP needs root: %s\n", why);
  exit (0);
}

static char *
read_sysfs (const char *path)
{
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;

  return g_strstrip (contents);
}

/* The device-mapper names this suite gives its devices. */
static char *
dm_prefix (void)
{
  return g_strdup_printf ("dstest-%d-", (int) owner_pid);
}

/* TRUE if the block device @name is one of the suite's: a loop over the
 * scratch folder or over one of @ours (a device name), one of its
 * partitions, or a dm device of the suite's name. */
static gboolean
is_ours (const char *name,
         GPtrArray  *ours)
{
  g_autofree char *backing = NULL;
  g_autofree char *dm_name = NULL;
  g_autofree char *prefix = dm_prefix ();
  g_autofree char *path = g_strdup_printf ("/sys/block/%s/loop/backing_file", name);
  struct stat st;

  backing = read_sysfs (path);
  if (is_suite_file (backing))
    return TRUE;
  if (backing != NULL && stat (backing, &st) == 0 && S_ISBLK (st.st_mode))
    {
      g_autofree char *link = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_rdev),
                                               minor (st.st_rdev));
      g_autofree char *real = realpath (link, NULL);
      g_autofree char *base = real != NULL ? g_path_get_basename (real) : NULL;
      g_autofree char *disk = NULL;

      if (base == NULL)
        return FALSE;
      if (g_ptr_array_find_with_equal_func (ours, base, g_str_equal, NULL))
        return TRUE;
      /* A partition of one of ours. */
      g_free (base);
      base = g_path_get_dirname (real);
      disk = g_path_get_basename (base);
      return g_ptr_array_find_with_equal_func (ours, disk, g_str_equal, NULL);
    }
  g_free (path);
  path = g_strdup_printf ("/sys/block/%s/dm/name", name);
  dm_name = read_sysfs (path);

  return dm_name != NULL && g_str_has_prefix (dm_name, prefix);
}

/* Removes the suite's stacked devices, those built last first: a loop
 * over a loop, a dm device over a loop (the loops over files go after). */
static void
cleanup_stacks (void)
{
  g_autoptr (GPtrArray) ours = g_ptr_array_new_with_free_func (g_free);
  gboolean grew = TRUE;

  /* What is ours, to a fixpoint: each round adds what is built on it. */
  while (grew)
    {
      g_autoptr (GDir) dir = g_dir_open ("/sys/block", 0, NULL);
      const char *name;

      grew = FALSE;
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        if (!g_ptr_array_find_with_equal_func (ours, name, g_str_equal, NULL) &&
            is_ours (name, ours))
          {
            g_ptr_array_add (ours, g_strdup (name));
            grew = TRUE;
          }
    }

  for (guint i = ours->len; i-- > 0;)
    {
      const char *name = g_ptr_array_index (ours, i);
      g_autofree char *path = g_strdup_printf ("/sys/block/%s/dm/name", name);
      g_autofree char *dm_name = read_sysfs (path);
      g_autofree char *dev = g_strdup_printf ("/dev/%s", name);
      g_autofree char *backing_path = g_strdup_printf ("/sys/block/%s/loop/backing_file", name);
      g_autofree char *backing = read_sysfs (backing_path);

      if (dm_name != NULL)
        {
          const char *argv[] = { "dmsetup", "remove", "--retry", dm_name, NULL };

          ds_test_run (argv, NULL, NULL);
        }
      else if (backing != NULL && !is_suite_file (backing))
        ds_test_loop_detach (dev);
    }
}

void
ds_test_cleanup (void)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;

  /* Only the process that made the folder tears it down (forked tests
   * exit through here too). */
  if (scratch_dir == NULL || getpid () != owner_pid)
    return;

  /* Mounts first (a test that crashed while a filesystem was mounted
   * leaves it busy, and its loop device would not detach), deepest first. */
  {
    g_autofree char *mountinfo = NULL;

    if (g_file_get_contents ("/proc/self/mountinfo", &mountinfo, NULL, NULL))
      {
        g_auto (GStrv) lines = g_strsplit (mountinfo, "\n", -1);

        for (int i = (int) g_strv_length (lines) - 1; i >= 0; i--)
          {
            g_auto (GStrv) fields = g_strsplit (lines[i], " ", 6);

            if (g_strv_length (fields) >= 5 && g_str_has_prefix (fields[4], scratch_dir))
              {
                const char *argv[] = { "umount", "-l", fields[4], NULL };
                ds_test_run (argv, NULL, NULL);
              }
          }
      }
  }

  /* Stacks (loops over loops, device-mapper over loops) top first, then
   * the loops over the scratch folder's files. */
  cleanup_stacks ();
  dir = g_dir_open ("/sys/block", 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *attr = NULL;
      g_autofree char *backing = NULL;

      if (!g_str_has_prefix (name, "loop"))
        continue;

      attr = g_strdup_printf ("/sys/block/%s/loop/backing_file", name);
      backing = read_sysfs (attr);
      if (is_suite_file (backing))
        {
          g_autofree char *dev = g_strdup_printf ("/dev/%s", name);
          ds_test_loop_detach (dev);
        }
    }

  for (char **folder = (char *[]) { scratch_dir, ram_dir, NULL }; *folder != NULL; folder++)
    {
      g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", *folder);
      if (system (cmd) != 0)
        g_printerr ("could not remove %s\n", *folder);
    }
  g_clear_pointer (&ram_dir, g_free);
  g_clear_pointer (&scratch_dir, g_free);
}

static void
on_fatal_signal (int signo)
{
  ds_test_cleanup ();
  signal (signo, SIG_DFL);
  raise (signo);
}

void
ds_test_init (const char *suite_name)
{
  g_autofree char *template = g_strdup_printf ("/var/tmp/ds-test-%s-XXXXXX", suite_name);

  scratch_dir = g_mkdtemp (g_steal_pointer (&template));
  if (scratch_dir == NULL)
    {
      perror ("mkdtemp");
      exit (99);
    }
  /* Made here, not on first use: a forked test's would not be removed. */
  {
    g_autofree char *base = g_path_get_basename (scratch_dir);
    g_autofree char *ram = g_strdup_printf ("/dev/shm/%s-XXXXXX", base);

    ram_dir = g_mkdtemp (g_steal_pointer (&ram));
  }
  owner_pid = getpid ();
  atexit (ds_test_cleanup);
  signal (SIGINT, on_fatal_signal);
  signal (SIGTERM, on_fatal_signal);
  signal (SIGABRT, on_fatal_signal);
  signal (SIGSEGV, on_fatal_signal);
}

/* The architecture seccomp sees the test's system calls from (a filter
 * that did not check it would match another ABI's numbers). */
#if defined(__x86_64__)
# define TEST_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
# define TEST_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

gboolean
ds_test_deny_io_uring (void)
{
#ifdef TEST_AUDIT_ARCH
  /* Another architecture: allowed (it cannot be ours); io_uring_setup:
   * ENOSYS; anything else: allowed. */
  struct sock_filter filter[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, TEST_AUDIT_ARCH, 1, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = {
    .len = G_N_ELEMENTS (filter),
    .filter = filter,
  };

  /* Without privileges a filter needs no_new_privs (set-user-ID programs
   * this process runs would lose theirs: it is a test's child). */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return FALSE;

  return prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0;
#else
  errno = ENOTSUP;
  return FALSE;
#endif
}

char *
ds_test_scratch_path (const char *name)
{
  return g_build_filename (scratch_dir, name, NULL);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

char *
ds_test_list_dir (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  return g_strjoinv (" ", (char **) names->pdata);
}

void
ds_test_write_mbr (const char *path)
{
  uint8_t sector[512] = { 0 };
  uint32_t start = 2048, count = 8192;
  int fd = open (path, O_WRONLY | O_CLOEXEC);

  g_assert (fd >= 0);
  sector[446 + 4] = 0x83;
  memcpy (sector + 446 + 8, &start, 4);
  memcpy (sector + 446 + 12, &count, 4);
  sector[510] = 0x55;
  sector[511] = 0xAA;
  g_assert_cmpint (pwrite (fd, sector, 512, 0), ==, 512);
  g_assert_cmpint (fsync (fd), ==, 0);
  close (fd);
}

static char *
fill_file (char     *path,
           uint64_t  size_bytes,
           uint64_t  seed)
{
  g_autofree uint8_t *chunk = g_malloc (1 << 20);
  DsRng rng;
  int fd;

  ds_rng_seed (&rng, seed);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  g_assert (fd >= 0);
  for (uint64_t done = 0; done < size_bytes;)
    {
      size_t n = MIN ((uint64_t) (1 << 20), size_bytes - done);
      ds_buffer_fill (chunk, n, &rng);
      g_assert_cmpint (write (fd, chunk, n), ==, (ssize_t) n);
      done += n;
    }
  g_assert_cmpint (fsync (fd), ==, 0);
  close (fd);

  return path;
}

char *
ds_test_make_file (const char *name,
                   uint64_t    size_bytes,
                   uint64_t    seed)
{
  return fill_file (g_build_filename (scratch_dir, name, NULL), size_bytes, seed);
}

char *
ds_test_make_ram_file (const char *name,
                       uint64_t    size_bytes,
                       uint64_t    seed)
{
  g_assert (ram_dir != NULL);
  return fill_file (g_build_filename (ram_dir, name, NULL), size_bytes, seed);
}

int
ds_test_run (const char *const *argv,
             char             **ret_out,
             char             **ret_err)
{
  g_autoptr (GError) error = NULL;
  int status = 0;
  GSpawnFlags flags = G_SPAWN_SEARCH_PATH;

  /* The test's own stdout is the TAP stream: an output nobody asked for
   * goes nowhere rather than into it. */
  if (ret_out == NULL)
    flags |= G_SPAWN_STDOUT_TO_DEV_NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, flags,
                     NULL, NULL, ret_out, ret_err, &status, &error))
    {
      g_printerr ("spawn %s: %s\n", argv[0], error->message);
      return -1;
    }

  if (WIFEXITED (status))
    return WEXITSTATUS (status);

  return -1;
}

int
ds_test_cli_argv (const char *const *args,
                  const char        *redirect,
                  char             **ret_out,
                  char             **ret_err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *script = NULL;

  if (redirect != NULL)
    {
      /* "$0" is the CLI, "$@" its arguments: nothing is re-quoted. */
      script = g_strdup_printf ("exec \"$0\" \"$@\" %s", redirect);
      g_ptr_array_add (argv, (gpointer) "sh");
      g_ptr_array_add (argv, (gpointer) "-c");
      g_ptr_array_add (argv, script);
    }
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  /* Always captured: what the CLI prints must never reach the test's own
   * stdout, which is the TAP stream. */
  rc = ds_test_run ((const char *const *) argv->pdata, &out, &err);
  /* What an earlier call left there is replaced, not leaked. */
  if (ret_out != NULL)
    {
      g_free (*ret_out);
      *ret_out = g_steal_pointer (&out);
    }
  if (ret_err != NULL)
    {
      g_free (*ret_err);
      *ret_err = g_steal_pointer (&err);
    }

  return rc;
}

int
ds_test_cli (char       **ret_out,
             char       **ret_err,
             const char  *first,
             ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  return ds_test_cli_argv ((const char *const *) args->pdata, NULL, ret_out, ret_err);
}

void
ds_test_note (const char *format,
              ...)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  va_list ap;

  va_start (ap, format);
  text = g_strdup_vprintf (format, ap);
  va_end (ap);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    printf ("# %s\n", lines[i]);
  fflush (stdout);
}

void
ds_test_run_ok (const char *const *argv)
{
  g_autofree char *err = NULL;
  int rc = ds_test_run (argv, NULL, &err);

  ck_assert_msg (rc == 0, "%s failed (%d): %s", argv[0], rc, err ? err : "");
}

void
ds_test_mkfs_ext4 (const char *device)
{
  const char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", "dstest", "-m", "0",
                         "-E", "lazy_itable_init=0,lazy_journal_init=0",
                         device, NULL };

  ds_test_run_ok (argv);
}

char *
ds_test_mount (const char *device,
               const char *name)
{
  g_autofree char *dir = g_build_filename (scratch_dir, name, NULL);
  const char *argv[] = { "mount", "-o", "noatime", device, dir, NULL };

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0700), 0);
  ds_test_run_ok (argv);

  return g_steal_pointer (&dir);
}

char *
ds_test_mount_ext4 (const char *device,
                    const char *name)
{
  ds_test_mkfs_ext4 (device);

  return ds_test_mount (device, name);
}

char *
ds_test_loop_attach (const char *backing,
                     gboolean    read_only)
{
  const char *argv_rw[] = { "losetup", "--find", "--show", "--direct-io=on", backing, NULL };
  const char *argv_ro[] = { "losetup", "--find", "--show", "--direct-io=on", "-r", backing, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  rc = ds_test_run (read_only ? argv_ro : argv_rw, &out, &err);
  if (rc != 0)
    g_error ("losetup %s failed (%d): %s", backing, rc, err ? err : "");

  return g_strdup (g_strstrip (out));
}

char *
ds_test_loop_attach_dio (const char *backing,
                         gboolean    direct_io)
{
  const char *argv[] = { "losetup", "--find", "--show",
                         direct_io ? "--direct-io=on" : "--direct-io=off", backing, NULL };
  const char *settle[] = { "udevadm", "settle", "--timeout=10", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (ds_test_run (argv, &out, &err) != 0)
    g_error ("losetup %s failed: %s", backing, err ? err : "");
  ds_test_run (settle, NULL, NULL);

  return g_strdup (g_strstrip (out));
}

char *
ds_test_loop_new (uint64_t size_bytes,
                  gboolean read_only)
{
  static unsigned counter;
  g_autofree char *name = g_strdup_printf ("disk-%d-%u.img", (int) getpid (), counter++);
  g_autofree char *path = ds_test_make_file (name, size_bytes, counter * 7919 + 1);

  return ds_test_loop_attach (path, read_only);
}

void
ds_test_loop_detach (const char *device)
{
  const char *argv[] = { "losetup", "-d", device, NULL };

  /* The kernel may hold the device for a moment after a close; retry. */
  for (int i = 0; i < 50; i++)
    {
      if (ds_test_run (argv, NULL, NULL) == 0)
        return;
      g_usleep (20000);
    }
  g_printerr ("could not detach %s\n", device);
}

char *
ds_test_checksum (const char *path)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  uint8_t *buf = ds_buffer_alloc (1 << 20, 4096);
  int fd = open (path, O_RDONLY | O_DIRECT | O_CLOEXEC);
  ssize_t n;

  g_assert (fd >= 0);
  while ((n = read (fd, buf, 1 << 20)) > 0)
    g_checksum_update (sum, buf, (gsize) n);
  g_assert_cmpint (n, ==, 0);
  close (fd);
  ds_buffer_free (buf);

  return g_strdup (g_checksum_get_string (sum));
}

const char *
ds_test_cli_path (void)
{
  static char *fallback;
  const char *path = g_getenv ("DISKSCOPE_CLI");

  if (path != NULL)
    return path;

  /* Run by hand from the build tree: build/tests/X -> build/app/. */
  if (fallback == NULL)
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *dir = exe ? g_path_get_dirname (exe) : g_strdup (".");

      fallback = g_build_filename (dir, "..", "app", "diskscope-cli", NULL);
    }

  return fallback;
}

int
ds_test_run_suite (Suite *suite)
{
  SRunner *runner = srunner_create (suite);
  int failed;

  srunner_set_tap (runner, "/dev/stdout");
  srunner_set_fork_status (runner, CK_FORK);
  srunner_run_all (runner, CK_SILENT);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);

  return failed == 0 ? 0 : 1;
}

char *
ds_test_loop_attach_opts (const char        *backing,
                          const char *const *options)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_ptr_array_add (argv, (gpointer) "losetup");
  g_ptr_array_add (argv, (gpointer) "--find");
  g_ptr_array_add (argv, (gpointer) "--show");
  g_ptr_array_add (argv, (gpointer) "--direct-io=on");
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  g_ptr_array_add (argv, (gpointer) backing);
  g_ptr_array_add (argv, NULL);
  if (ds_test_run ((const char *const *) argv->pdata, &out, &err) != 0)
    g_error ("losetup %s failed: %s", backing, err ? err : "");

  return g_strdup (g_strstrip (out));
}

char *
ds_test_dm_name (const char *what)
{
  g_autofree char *prefix = dm_prefix ();

  return g_strconcat (prefix, what, NULL);
}
