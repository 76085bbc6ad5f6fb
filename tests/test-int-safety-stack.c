/* test-int-safety-stack.c: the write gate sees through stacked devices
 * (issue 21, class 1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root only, on real stacks: loops over loops, two loops over one file,
 * offset loops in and out of a mounted loop's region, partitions of a
 * loop-backed disk and loops over them, a loop over a mknod copy of a
 * device node, a loop over a file inside a mounted filesystem, and
 * device-mapper over a loop where the kernel has device-mapper.  Every
 * refusal is checked three ways: exit 3, a message that says which device
 * holds the bytes and how, and the bottom file's checksum (and fsck of the
 * filesystem) unchanged.  Every write command goes through the same gate:
 * the first case runs all of them, and the app's check (DsSession).  A
 * mounted filesystem is mounted read-only with noload, so that nothing but
 * a stray write can change its bytes.  ds_test_cleanup() takes every stack
 * apart, even after a failure (mounts, then loops over loops and dm
 * devices top first, then the loops over files).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-safety.h"
#include "ds-target.h"
#include "ds-test-util.h"

#ifdef DS_TEST_HAVE_SESSION
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include "ds-session.h"
#include "ds-settings.h"
#endif

#define MiB (UINT64_C (1) << 20)
#define note ds_test_note

/* ---- helpers ---- */

static char *
attach (const char *backing,
        ...) G_GNUC_NULL_TERMINATED;

/* A loop over @backing with the NULL-terminated losetup options after it. */
static char *
attach (const char *backing,
        ...)
{
  g_autoptr (GPtrArray) options = g_ptr_array_new ();
  const char *option;
  va_list ap;

  va_start (ap, backing);
  while ((option = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (options, (gpointer) option);
  va_end (ap);
  g_ptr_array_add (options, NULL);

  return ds_test_loop_attach_opts (backing, (const char *const *) options->pdata);
}

/* losetup -d, and until the device is unbound: a loop that was the
 * backing of another is cleared only when that one lets go of it (the
 * kernel's autoclear), a moment after its own detach. */
static void
detach (const char *dev)
{
  g_autofree char *attr = g_strdup_printf ("/sys/block/%s/loop/backing_file", dev + strlen ("/dev/"));

  ds_test_loop_detach (dev);
  for (int i = 0; i < 200 && g_file_test (attr, G_FILE_TEST_EXISTS); i++)
    g_usleep (10000);
  ck_assert_msg (!g_file_test (attr, G_FILE_TEST_EXISTS), "%s is still bound after losetup -d", dev);
}

static char *
bytes (uint64_t value)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, value);
}

/* Mounts the ext4 on @dev read-only without replaying its journal (its
 * bytes then change only if something writes under it) on the scratch
 * folder's @name. */
static char *
mount_ro (const char *dev,
          const char *name)
{
  g_autofree char *dir = ds_test_scratch_path (name);

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0700), 0);
  ck_assert_msg (mount (dev, dir, "ext4", MS_RDONLY, "noload") == 0, "mount %s: %s", dev,
                 g_strerror (errno));

  return g_steal_pointer (&dir);
}

static void
unmount (const char *dir)
{
  ck_assert_msg (umount (dir) == 0, "umount %s: %s", dir, g_strerror (errno));
}

/* e2fsck -fn: the filesystem on @path is clean. */
static void
assert_fsck_clean (const char *path)
{
  const char *argv[] = { "e2fsck", "-fn", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc = ds_test_run (argv, &out, &err);

  ck_assert_msg (rc == 0, "e2fsck -fn %s: exit %d: %s%s", path, rc, out, err);
}

/* Runs the CLI with @args (DEV replaced by @dev) and the confirmation
 * naming @dev; returns its exit status and stderr. */
static int
run_confirmed (const char        *dev,
               const char *const *args,
               char             **ret_err)
{
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", dev);
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;

  for (guint i = 0; args[i] != NULL; i++)
    g_strv_builder_add (b, g_str_equal (args[i], "DEV") ? dev : args[i]);
  g_strv_builder_add_many (b, confirm, "--no-progress", NULL);
  argv = g_strv_builder_end (b);

  return ds_test_cli_argv ((const char *const *) argv, NULL, NULL, ret_err);
}

static void
assert_words (const char        *what,
              const char        *message,
              const char *const *words)
{
  for (guint w = 0; words[w] != NULL; w++)
    ck_assert_msg (message != NULL && strstr (message, words[w]) != NULL,
                   "%s: “%s” is not in: %s", what, words[w], message);
}

/* A confirmed write of @dev is refused (exit 3) with @words in the
 * message, and @watch (the bottom of the stack) is unchanged. */
static void
assert_refused (const char        *dev,
                const char        *watch,
                const char *const *words)
{
  const char *args[] = { "workload", "DEV", "--pattern", "randwrite", "--duration", "300ms", NULL };
  g_autofree char *before = ds_test_checksum (watch);
  g_autofree char *after = NULL;
  g_autofree char *err = NULL;
  int rc = run_confirmed (dev, args, &err);

  note ("write %s: exit %d: %s", dev, rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 3, "write %s: exit %d, want 3 (refused): %s", dev, rc, err);
  assert_words (dev, err, words);
  after = ds_test_checksum (watch);
  ck_assert_msg (g_str_equal (before, after), "%s changed although the write to %s was refused",
                 watch, dev);
}

/* A confirmed write of @dev runs (exit 0). */
static void
assert_allowed (const char *dev)
{
  const char *args[] = { "workload", "DEV", "--pattern", "randwrite", "--duration", "200ms", NULL };
  g_autofree char *err = NULL;
  int rc = run_confirmed (dev, args, &err);

  note ("write %s: exit %d%s%s", dev, rc, err != NULL && err[0] ? ": " : "", err ? g_strstrip (err) : "");
  ck_assert_msg (rc == 0, "write %s: exit %d, want 0 (nothing shares its bytes): %s", dev, rc, err);
}

/* An ext4 image of @size_bytes in the scratch folder. */
static char *
make_ext4_image (const char *name,
                 uint64_t    size_bytes)
{
  g_autofree char *path = ds_test_make_file (name, size_bytes, 21);

  ds_test_mkfs_ext4 (path);
  return g_steal_pointer (&path);
}

/* ---- every write command, and the app, on one stack ---- */

/* The ten write commands (erase in every mode), DEV the target. */
static const char *const writers[][12] = {
  { "benchmark", "DEV", "--write", "--accuracy", "1", NULL },
  { "extra", "DEV", "--write", "--accuracy", "1", NULL },
  { "random-access", "DEV", "--write", "--accuracy", "1", NULL },
  { "block-size", "DEV", "--write", "--accuracy", "1", NULL },
  { "workload", "DEV", "--pattern", "randwrite", "--duration", "300ms", NULL },
  { "workload", "DEV", "--pattern", "randrw", "--duration", "300ms", NULL },
  { "mark", "DEV", "--row", "randwrite,4k,qd8,t1,300ms", NULL },
  { "sweep", "DEV", "--pattern", "randwrite", "--levels", "1,2", "--step-time", "200ms", NULL },
  { "sustain", "DEV", "--size", "25%", NULL },
  { "cache", "DEV", "--write", "--max", "16M", "--set-time", "200ms", NULL },
  { "erase", "DEV", "--zeros", NULL },
  { "erase", "DEV", "--random", NULL },
  { "erase", "DEV", "--discard", NULL },
  { "erase", "DEV", "--secure", NULL },
  { "erase", "DEV", "--zeros", "--verify", NULL },
};

#ifdef DS_TEST_HAVE_SESSION
/* The app's check before its confirmation dialog: the same refusal. */
static void
assert_app_refuses (const char        *dev,
                    const char *const *words)
{
  g_autoptr (GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSettings) settings = ds_settings_new (backend, &error);
  g_autoptr (DsSession) session = NULL;
  DsBenchSpec spec;

  ck_assert_msg (settings != NULL, "%s", error ? error->message : "");
  session = ds_session_new (settings);
  ds_session_init_spec (session, &spec, DS_BENCH_TRANSFER, dev);
  spec.write = TRUE;
  ck_assert_int_eq (ds_session_check_write (session, &spec, &error), DS_WRITE_REFUSED);
  note ("the app on %s: %s", dev, error->message);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_REFUSED));
  assert_words ("the app", error->message, words);
  ds_bench_spec_clear (&spec);
}
#endif

/* The case: a loop whose backing is a loop device holding a
 * mounted ext4.  Every write command refuses it, the app too, and the
 * filesystem is intact; unmounted, the same write runs. */
START_TEST (test_loop_over_mounted_loop)
{
  g_autofree char *image = make_ext4_image ("lb-over-la.img", 32 * MiB);
  g_autofree char *la = ds_test_loop_attach (image, FALSE);
  g_autofree char *mnt = mount_ro (la, "mnt-la");
  g_autofree char *lb = attach (la, NULL);
  g_autofree char *before = ds_test_checksum (image);
  g_autofree char *after = NULL;
  g_autofree char *how = g_strdup_printf ("%s is a loop over %s, which is mounted at %s", lb, la, mnt);
  const char *words[] = { how, NULL };

  for (guint v = 0; v < G_N_ELEMENTS (writers); v++)
    {
      g_autofree char *err = NULL;
      int rc = run_confirmed (lb, writers[v], &err);

      note ("%s %s %s: exit %d: %s", writers[v][0], lb, writers[v][2] ? writers[v][2] : "", rc,
            err ? g_strstrip (err) : "");
      ck_assert_msg (rc == 3, "%s %s: exit %d, want 3 (refused): %s", writers[v][0],
                     writers[v][2] ? writers[v][2] : "", rc, err);
      assert_words (writers[v][0], err, words);
    }
  {
    g_autoptr (GError) error = NULL;

    ck_assert (!ds_target_check_write (lb, lb, &error));
    assert_words ("ds_target_check_write", error->message, words);
  }
#ifdef DS_TEST_HAVE_SESSION
  assert_app_refuses (lb, words);
#else
  note ("the app's check is not built (no GUI build): ds_target_check_write stands for it");
#endif
  after = ds_test_checksum (image);
  ck_assert_str_eq (before, after);

  /* The file under both: the backing of LA, itself mounted. */
  {
    g_autofree char *file_how = g_strdup_printf ("%s is the backing file of %s", image, la);
    const char *file_words[] = { file_how, NULL };

    assert_refused (image, image, file_words);
  }

  /* A read test on the stack is no write: it runs. */
  {
    g_autofree char *err = NULL;
    int rc = ds_test_cli (NULL, &err, "benchmark", lb, "--accuracy", "1", "--no-progress", NULL);

    ck_assert_msg (rc == 0, "a read benchmark of %s: exit %d: %s", lb, rc, err);
  }

  unmount (mnt);
  assert_fsck_clean (image);
  /* Nothing uses LA now: LB may be written. */
  assert_allowed (lb);
  detach (lb);
  detach (la);
}
END_TEST

/* The other way up: writing the bottom of a stack whose top is mounted,
 * three loops high; the message follows the whole chain. */
START_TEST (test_mounted_top_of_three)
{
  g_autofree char *image = ds_test_make_file ("three.img", 32 * MiB, 22);
  g_autofree char *la = ds_test_loop_attach (image, FALSE);
  g_autofree char *lb = attach (la, NULL);
  g_autofree char *lc = attach (lb, NULL);
  g_autofree char *mnt = NULL;
  g_autofree char *la_how = NULL;
  g_autofree char *lb_how = NULL;
  g_autofree char *file_how = NULL;

  ds_test_mkfs_ext4 (lc);
  mnt = mount_ro (lc, "mnt-lc");
  la_how = g_strdup_printf ("%s is the backing device of %s, which is the backing device of %s, "
                            "which is mounted at %s", la, lb, lc, mnt);
  lb_how = g_strdup_printf ("%s is the backing device of %s, which is mounted at %s", lb, lc, mnt);
  file_how = g_strdup_printf ("%s is the backing file of %s, which is the backing device of %s, "
                              "which is the backing device of %s, which is mounted at %s",
                              image, la, lb, lc, mnt);
  {
    const char *a[] = { la_how, NULL };
    const char *b[] = { lb_how, NULL };
    const char *f[] = { file_how, NULL };

    assert_refused (la, image, a);
    assert_refused (lb, image, b);
    assert_refused (image, image, f);
  }
  unmount (mnt);
  assert_fsck_clean (lc);

  /* Unmounted, a loop over the bottom still counts: detach it first. */
  {
    g_autofree char *how = g_strdup_printf ("%s is the backing device of %s", la, lb);
    const char *words[] = { how, "losetup -d", NULL };

    assert_refused (la, image, words);
  }
  detach (lc);
  detach (lb);
  assert_allowed (la);
  detach (la);
}
END_TEST

/* Two loops over one file: the first mounted, the second written. */
START_TEST (test_two_loops_one_file)
{
  g_autofree char *image = make_ext4_image ("two.img", 32 * MiB);
  g_autofree char *l1 = ds_test_loop_attach (image, FALSE);
  g_autofree char *mnt = mount_ro (l1, "mnt-two");
  g_autofree char *l2 = ds_test_loop_attach (image, FALSE);
  g_autofree char *how = g_strdup_printf ("%s is a loop over %s, which is also the backing file "
                                          "of %s, which is mounted at %s", l2, image, l1, mnt);
  const char *words[] = { how, NULL };

  assert_refused (l2, image, words);
  unmount (mnt);
  assert_fsck_clean (image);

  /* Unused, the first loop still shows the same bytes. */
  {
    const char *unused[] = { "also the backing file", l1, "losetup -d", NULL };

    assert_refused (l2, image, unused);
  }
  detach (l1);
  assert_allowed (l2);
  detach (l2);
}
END_TEST

/* Offset loops (losetup -o, --sizelimit) over a file whose first 16 MiB
 * are a mounted loop: one inside that region, one across its end, one
 * just past it.  The region's bytes decide: the one past it runs, and the
 * mounted filesystem is intact. */
START_TEST (test_offset_loops)
{
  g_autofree char *image = ds_test_make_file ("offsets.img", 48 * MiB, 23);
  g_autofree char *l16 = bytes (16 * MiB);
  g_autofree char *l1 = attach (image, "--sizelimit", l16, NULL);
  g_autofree char *mnt = NULL;
  g_autofree char *one = bytes (MiB);
  g_autofree char *four = bytes (4 * MiB);
  g_autofree char *fifteen = bytes (15 * MiB);
  g_autofree char *eight = bytes (8 * MiB);
  g_autofree char *inside = NULL;
  g_autofree char *across = NULL;
  g_autofree char *past = NULL;
  g_autofree char *fs_before = NULL;
  g_autofree char *fs_after = NULL;

  ds_test_mkfs_ext4 (l1);
  mnt = mount_ro (l1, "mnt-offsets");
  fs_before = ds_test_checksum (l1);

  inside = attach (image, "-o", one, "--sizelimit", four, NULL);
  {
    const char *words[] = { "also the backing file", l1, mnt,
                            "both cover bytes 1048576 to 5242879 of", NULL };

    assert_refused (inside, image, words);
  }
  detach (inside);

  across = attach (image, "-o", fifteen, "--sizelimit", eight, NULL);
  {
    const char *words[] = { l1, mnt, "both cover bytes 15728640 to 16777215 of", NULL };

    assert_refused (across, image, words);
  }
  detach (across);

  /* From the region's end on: other bytes, nothing uses them. */
  past = attach (image, "-o", l16, "--sizelimit", eight, NULL);
  assert_allowed (past);
  {
    const char *erase[] = { "erase", "DEV", "--zeros", "--verify", NULL };
    g_autofree char *err = NULL;
    int rc = run_confirmed (past, erase, &err);

    ck_assert_msg (rc == 0, "erase %s: exit %d: %s", past, rc, err);
  }
  fs_after = ds_test_checksum (l1);
  ck_assert_str_eq (fs_before, fs_after);

  /* The file itself holds the mounted region. */
  {
    const char *words[] = { "backing file of", l1, mnt, NULL };

    assert_refused (image, l1, words);
  }
  detach (past);
  unmount (mnt);
  assert_fsck_clean (l1);
  detach (l1);
}
END_TEST

/* ---- partitions ---- */

static void
put_le32 (uint8_t *p,
          uint32_t v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

/* A 64 MiB disk image with two partitions: 1 MiB + 16 MiB, 17 MiB + 32 MiB. */
static char *
make_partitioned_image (const char *name)
{
  g_autofree char *path = ds_test_make_file (name, 64 * MiB, 24);
  const uint32_t parts[2][2] = { { 2048, 32768 }, { 34816, 65536 } };
  uint8_t mbr[512] = { 0 };
  int fd = open (path, O_WRONLY | O_CLOEXEC);

  ck_assert_int_ge (fd, 0);
  for (int i = 0; i < 2; i++)
    {
      uint8_t *e = mbr + 446 + 16 * i;

      e[4] = 0x83;
      put_le32 (e + 8, parts[i][0]);
      put_le32 (e + 12, parts[i][1]);
    }
  mbr[510] = 0x55;
  mbr[511] = 0xaa;
  ck_assert_int_eq (pwrite (fd, mbr, sizeof mbr, 0), (ssize_t) sizeof mbr);
  ck_assert_int_eq (fsync (fd), 0);
  close (fd);

  return g_steal_pointer (&path);
}

/* A loop over @image with its partitions (the kernel's scan, or partx
 * where the kernel has no MBR parser, as here). */
static char *
attach_partitioned (const char *image)
{
  g_autofree char *dev = attach (image, "-P", NULL);
  g_autofree char *p2 = g_strdup_printf ("%sp2", dev);

  for (int i = 0; i < 25 && !g_file_test (p2, G_FILE_TEST_EXISTS); i++)
    g_usleep (20000);
  if (!g_file_test (p2, G_FILE_TEST_EXISTS))
    {
      const char *partx[] = { "partx", "-a", dev, NULL };

      ds_test_run_ok (partx);
    }
  for (int i = 0; i < 100 && !g_file_test (p2, G_FILE_TEST_EXISTS); i++)
    g_usleep (20000);
  ck_assert_msg (g_file_test (p2, G_FILE_TEST_EXISTS), "%s did not appear", p2);

  return g_steal_pointer (&dev);
}

/* A partition of a loop-backed disk mounted: the whole disk, a loop over
 * the disk in that partition's region and the image are refused; the
 * other partition, and a loop over the disk in its region, run; and the
 * whole disk too once nothing uses its partitions. */
START_TEST (test_partition_mounted)
{
  g_autofree char *image = make_partitioned_image ("parted.img");
  g_autofree char *disk = attach_partitioned (image);
  g_autofree char *p1 = g_strdup_printf ("%sp1", disk);
  g_autofree char *p2 = g_strdup_printf ("%sp2", disk);
  g_autofree char *mnt = NULL;
  g_autofree char *two = bytes (2 * MiB);
  g_autofree char *four = bytes (4 * MiB);
  g_autofree char *twenty = bytes (20 * MiB);
  g_autofree char *in_p1 = NULL;
  g_autofree char *in_p2 = NULL;
  g_autofree char *fs_before = NULL;
  g_autofree char *fs_after = NULL;

  ds_test_mkfs_ext4 (p1);
  mnt = mount_ro (p1, "mnt-p1");
  fs_before = ds_test_checksum (p1);
  {
    g_autofree char *how = g_strdup_printf ("%s has the partition %s, which is mounted at %s",
                                            disk, p1, mnt);
    const char *words[] = { how, NULL };

    assert_refused (disk, image, words);
  }

  in_p1 = attach (disk, "-o", two, "--sizelimit", four, NULL);
  {
    g_autofree char *how = g_strdup_printf ("%s is a loop over %s, which also has the partition %s, "
                                            "which is mounted at %s", in_p1, disk, p1, mnt);
    const char *words[] = { how, "both cover bytes 2097152 to 6291455 of", NULL };

    assert_refused (in_p1, image, words);
  }
  detach (in_p1);

  in_p2 = attach (disk, "-o", twenty, "--sizelimit", four, NULL);
  assert_allowed (in_p2);
  detach (in_p2);
  assert_allowed (p2);
  fs_after = ds_test_checksum (p1);
  ck_assert_str_eq (fs_before, fs_after);

  {
    const char *words[] = { "backing file of", disk, p1, mnt, NULL };

    assert_refused (image, p1, words);
  }
  unmount (mnt);
  assert_fsck_clean (p1);
  /* Partitions nobody uses are windows on the disk, no reason to refuse. */
  assert_allowed (disk);
  detach (disk);
}
END_TEST

/* The reverse: a partition whose disk's bytes are held from above (a
 * mounted loop over the disk, in the second partition's region): that
 * partition is refused, the first runs. */
START_TEST (test_partition_of_held_disk)
{
  g_autofree char *image = make_partitioned_image ("held.img");
  g_autofree char *disk = attach_partitioned (image);
  g_autofree char *p1 = g_strdup_printf ("%sp1", disk);
  g_autofree char *p2 = g_strdup_printf ("%sp2", disk);
  g_autofree char *seventeen = bytes (17 * MiB);
  g_autofree char *l32 = bytes (32 * MiB);
  g_autofree char *over = attach (disk, "-o", seventeen, "--sizelimit", l32, NULL);
  g_autofree char *mnt = NULL;
  g_autofree char *how = NULL;

  ds_test_mkfs_ext4 (over);
  mnt = mount_ro (over, "mnt-over-p2");
  how = g_strdup_printf ("%s is a partition of %s, which is also the backing device of %s, "
                         "which is mounted at %s", p2, disk, over, mnt);
  {
    const char *words[] = { how, NULL };

    assert_refused (p2, image, words);
  }
  assert_allowed (p1);
  unmount (mnt);
  assert_fsck_clean (over);
  detach (over);
  detach (disk);
}
END_TEST

/* ---- other names, other filesystems, device-mapper ---- */

/* A loop bound to a mknod copy of a device node that is then removed:
 * the driver's record (the device number) still ties it to the device. */
START_TEST (test_mknod_backing)
{
  g_autofree char *image = ds_test_make_file ("node.img", 16 * MiB, 25);
  g_autofree char *la = ds_test_loop_attach (image, FALSE);
  g_autofree char *node = ds_test_scratch_path ("node-copy");
  g_autofree char *lb = NULL;
  struct stat st;

  ck_assert_int_eq (stat (la, &st), 0);
  ck_assert_int_eq (mknod (node, S_IFBLK | 0600, st.st_rdev), 0);
  lb = attach (node, NULL);
  ck_assert_int_eq (unlink (node), 0);
  {
    g_autofree char *how = g_strdup_printf ("%s is the backing device of %s", la, lb);
    const char *words[] = { how, "losetup -d", NULL };

    assert_refused (la, image, words);
  }
  detach (lb);
  assert_allowed (la);
  detach (la);
}
END_TEST

/* A loop over a file inside a mounted filesystem writes through that
 * filesystem, into that file's blocks alone: it runs (and the filesystem
 * is clean after).  The file itself is the loop's backing: refused. */
START_TEST (test_loop_over_file_in_mounted_fs)
{
  g_autofree char *image = make_ext4_image ("outer.img", 64 * MiB);
  g_autofree char *outer = ds_test_loop_attach (image, FALSE);
  g_autofree char *mnt = ds_test_mount (outer, "mnt-outer");
  g_autofree char *inner_file = g_build_filename (mnt, "inner.img", NULL);
  g_autofree char *inner = NULL;
  const char *dd[] = { "dd", "if=/dev/urandom", NULL, "bs=1M", "count=16", "status=none",
                       "conv=fsync", NULL };
  g_autofree char *of = g_strdup_printf ("of=%s", inner_file);

  dd[2] = of;
  ds_test_run_ok (dd);
  inner = ds_test_loop_attach (inner_file, FALSE);
  assert_allowed (inner);
  {
    const char *words[] = { "backing file of", inner, NULL };

    assert_refused (inner_file, inner, words);
  }
  detach (inner);
  {
    const char *argv[] = { "umount", mnt, NULL };

    ds_test_run_ok (argv);
  }
  assert_fsck_clean (outer);
  detach (outer);
}
END_TEST

static gboolean
have_device_mapper (char **ret_why)
{
  const char *argv[] = { "dmsetup", "version", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (ds_test_run (argv, &out, &err) == 0)
    return TRUE;
  /* Its first line says why ("/dev/mapper/control: open failed: No such device"). */
  if (err != NULL && strchr (err, '\n') != NULL)
    *strchr (err, '\n') = '\0';
  *ret_why = g_strdup_printf ("no device-mapper in this kernel (dmsetup version: %s)",
                              err != NULL ? err : "failed");
  return FALSE;
}

static char *
dm_create_linear (const char *what,
                  const char *dev,
                  uint64_t    size_bytes)
{
  g_autofree char *name = ds_test_dm_name (what);
  g_autofree char *table = g_strdup_printf ("0 %" G_GUINT64_FORMAT " linear %s 0",
                                            size_bytes / 512, dev);
  const char *argv[] = { "dmsetup", "create", name, "--table", table, NULL };

  ds_test_run_ok (argv);
  return g_steal_pointer (&name);
}

static void
dm_remove (const char *name)
{
  const char *argv[] = { "dmsetup", "remove", "--retry", name, NULL };

  ds_test_run_ok (argv);
}

/* A dm linear device over a loop, mounted: the loop under it and a
 * second loop beside it over the same bytes are refused, naming it; and
 * a partition of a disk that a dm device holds whole. */
START_TEST (test_dm_linear)
{
  g_autofree char *why = NULL;
  g_autofree char *image = NULL;
  g_autofree char *loop = NULL;
  g_autofree char *beside = NULL;
  g_autofree char *name = NULL;
  g_autofree char *mapped = NULL;
  g_autofree char *mnt = NULL;

  if (!have_device_mapper (&why))
    {
      note ("SKIP: %s", why);
      return;
    }
  image = ds_test_make_file ("dm.img", 32 * MiB, 26);
  loop = ds_test_loop_attach (image, FALSE);
  name = dm_create_linear ("linear", loop, 32 * MiB);
  mapped = g_strdup_printf ("/dev/mapper/%s", name);
  ds_test_mkfs_ext4 (mapped);
  mnt = mount_ro (mapped, "mnt-dm");
  {
    const char *words[] = { "is held by", name, NULL };

    assert_refused (loop, image, words);
  }
  beside = ds_test_loop_attach (image, FALSE);
  {
    const char *words[] = { "also the backing file of", loop, "held by", name, NULL };

    assert_refused (beside, image, words);
  }
  detach (beside);
  unmount (mnt);
  dm_remove (name);
  detach (loop);

  /* A partitioned disk held whole by a dm device: its partitions too. */
  {
    g_autofree char *parted = make_partitioned_image ("dm-parted.img");
    g_autofree char *disk = attach_partitioned (parted);
    g_autofree char *p1 = g_strdup_printf ("%sp1", disk);
    g_autofree char *whole = dm_create_linear ("whole", disk, 64 * MiB);
    g_autofree char *how = g_strdup_printf ("%s is a partition of %s, which is also held by",
                                            p1, disk);
    const char *words[] = { how, whole, NULL };

    assert_refused (p1, parted, words);
    dm_remove (whole);
    detach (disk);
  }
}
END_TEST

/* A read test probes none of this (nothing deep: no cost, no read of the
 * device before it is measured). */
START_TEST (test_read_probe_stays_shallow)
{
  g_autofree char *image = ds_test_make_file ("shallow.img", 16 * MiB, 27);
  g_autofree char *la = ds_test_loop_attach (image, FALSE);
  g_autofree char *lb = attach (la, NULL);
  DsTargetFacts facts;

  ds_safety_probe (&facts, la, NULL, FALSE);
  ck_assert_uint_eq (facts.n_shares, 0);
  ds_target_facts_clear (&facts);

  ds_safety_probe (&facts, la, NULL, TRUE);
  ck_assert_uint_ge (facts.n_shares, 1);
  ck_assert_int_eq (facts.shares[0].where, DS_SHARE_ABOVE);
  ck_assert_ptr_null (facts.unknown);
  ds_target_facts_clear (&facts);

  detach (lb);
  detach (la);
}
END_TEST

static Suite *
stack_suite (void)
{
  Suite *suite = suite_create ("int-safety-stack");
  TCase *loops = tcase_create ("loops");
  TCase *parts = tcase_create ("partitions");
  TCase *other = tcase_create ("other");

  tcase_set_timeout (loops, 300);
  tcase_add_test (loops, test_loop_over_mounted_loop);
  tcase_add_test (loops, test_mounted_top_of_three);
  tcase_add_test (loops, test_two_loops_one_file);
  tcase_add_test (loops, test_offset_loops);
  suite_add_tcase (suite, loops);

  tcase_set_timeout (parts, 120);
  tcase_add_test (parts, test_partition_mounted);
  tcase_add_test (parts, test_partition_of_held_disk);
  suite_add_tcase (suite, parts);

  tcase_set_timeout (other, 120);
  tcase_add_test (other, test_mknod_backing);
  tcase_add_test (other, test_loop_over_file_in_mounted_fs);
  tcase_add_test (other, test_dm_linear);
  tcase_add_test (other, test_read_probe_stays_shallow);
  suite_add_tcase (suite, other);

  return suite;
}

int
main (void)
{
  ds_test_require_root ("loop devices, mounts and device-mapper");
#ifdef DS_TEST_HAVE_SESSION
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
#endif
  ds_test_init ("safety-stack");

  return ds_test_run_suite (stack_suite ());
}
