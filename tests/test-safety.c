/* test-safety.c: the write gate's rules, table-driven on facts made by
 * hand (no root, no device); ds_safety_probe() on real files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each row is a target (its facts) and an intent; the verdict is the
 * error code (0: allowed) and words the message must hold.  The real
 * devices are in test-int-safety.c and test-int-target.c.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-safety.h"
#include "ds-test-util.h"

#define DEV  "/dev/sdz"
#define FILE_PATH "/data/test.bin"

typedef struct {
  const char     *name;
  DsTargetFacts   facts;
  DsSafetyIntent  intent;
  int             code;        /* 0: allowed; else the DsError */
  const char     *words[4];    /* in the message */
} Row;

/* A device and a file as the probe would describe them, free of any
 * reason to refuse; each row changes what it is about. */
#define BLOCK(...) { .path = (char *) DEV, .kind = DS_FACTS_BLOCK, .size_bytes = 1 << 30, \
                     .description = (char *) "Test disk (1.1 GB, " DEV ")", __VA_ARGS__ }
#define REG(...)   { .path = (char *) FILE_PATH, .kind = DS_FACTS_FILE, .size_bytes = 1 << 30, \
                     .description = (char *) "the file " FILE_PATH " (1.1 GB)", __VA_ARGS__ }
#define EMPTY(...) { .path = (char *) FILE_PATH, .kind = DS_FACTS_FILE, .size_bytes = 0, \
                     .description = (char *) "the file " FILE_PATH " (0 bytes)", __VA_ARGS__ }
#define CONFIRMED .confirm = (char *) "x", .confirm_matches = TRUE

/* What shares the target's bytes, as the probe would find it: where it
 * stands, the way to it, its use, whether it counts only in use, where
 * both meet and the bytes of that base each covers. */
#define MiB (UINT64_C (1) << 20)
#define UNKNOWN DS_SHARE_END_UNKNOWN
#define SHARE(where_, how_, use_, only_, base_, ts, te, s, e) \
  { .where = DS_SHARE_##where_, .how = (char *) (how_), .in_use = (char *) (use_), \
    .only_in_use = (only_), .base = (char *) (base_), \
    .target_start = (ts), .target_end = (te), .start = (s), .end = (e) }
#define SHARES(...) .shares = (DsShare[]) { __VA_ARGS__ }, \
                    .n_shares = sizeof ((DsShare[]) { __VA_ARGS__ }) / sizeof (DsShare)
#define IMG "/srv/disk.img"
#define LOOP(...) { .path = (char *) "/dev/loop5", .kind = DS_FACTS_BLOCK, .size_bytes = 4 * MiB, \
                    .description = (char *) "Loop device (4.2 MB, /dev/loop5)", CONFIRMED, \
                    __VA_ARGS__ }

static const Row rows[] = {
  /* Reading: anything that exists and is a device or non-empty file. */
  { "read a device", BLOCK (), DS_SAFETY_READ, 0, { NULL } },
  { "read a mounted device", BLOCK (.in_use = (char *) "mounted at /"), DS_SAFETY_READ, 0, { NULL } },
  { "read a file", REG (), DS_SAFETY_READ, 0, { NULL } },
  { "read a disk image", REG (.signature = (char *) "ext4"), DS_SAFETY_READ, 0, { NULL } },
  { "read nothing", { .path = (char *) "/nope", .kind = DS_FACTS_MISSING, .stat_errno = ENOENT },
    DS_SAFETY_READ, DS_ERROR_NOT_FOUND, { "/nope", "does not exist" } },
  { "read unreachable", { .path = (char *) "/root/x", .kind = DS_FACTS_MISSING, .stat_errno = EACCES },
    DS_SAFETY_READ, DS_ERROR_PERMISSION, { "/root/x" } },
  { "read a folder", { .path = (char *) "/tmp", .kind = DS_FACTS_OTHER, .other_what = "a folder" },
    DS_SAFETY_READ, DS_ERROR_INVALID, { "/tmp", "a folder", "not a block device or regular file" } },
  { "read an empty file", EMPTY (), DS_SAFETY_READ, DS_ERROR_INVALID,
    { FILE_PATH, "empty (0 bytes)", "--create" } },

  /* Writing needs the name, for a device and a file alike. */
  { "write a device", BLOCK (), DS_SAFETY_WRITE, DS_ERROR_REFUSED,
    { "destroys", "--destroy-data=" DEV } },
  { "write a device, confirmed", BLOCK (CONFIRMED), DS_SAFETY_WRITE, 0, { NULL } },
  { "write a device, other named", BLOCK (.confirm = (char *) "/dev/sdy"), DS_SAFETY_WRITE,
    DS_ERROR_REFUSED, { "names /dev/sdy, not " DEV } },
  { "write a file", REG (), DS_SAFETY_WRITE, DS_ERROR_REFUSED,
    { "--destroy-data=" FILE_PATH, "--create SIZE" } },
  { "write a file, confirmed", REG (CONFIRMED), DS_SAFETY_WRITE, 0, { NULL } },
  { "write a folder, confirmed", { .path = (char *) "/tmp", .kind = DS_FACTS_OTHER,
                                   .other_what = "a folder", CONFIRMED },
    DS_SAFETY_WRITE, DS_ERROR_INVALID, { "a folder" } },
  { "write an empty file, confirmed", EMPTY (CONFIRMED), DS_SAFETY_WRITE,
    DS_ERROR_INVALID, { "empty (0 bytes)" } },
  { "write nothing", { .path = (char *) "/nope", .kind = DS_FACTS_MISSING, .stat_errno = ENOENT },
    DS_SAFETY_WRITE, DS_ERROR_NOT_FOUND, { "does not exist", "--create SIZE" } },

  /* What no confirmation overrides. */
  { "write a read-only device", BLOCK (.read_only = TRUE, CONFIRMED), DS_SAFETY_WRITE,
    DS_ERROR_REFUSED, { "read-only" } },
  { "write a mounted device", BLOCK (.in_use = (char *) "mounted at /mnt", CONFIRMED),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "in use (mounted at /mnt)", "Unmount" } },
  { "write a held device",
    BLOCK (SHARES (SHARE (ABOVE, DEV " is held by /dev/dm-0 (vg-root)", NULL, FALSE, DEV,
                          0, 1 << 30, 0, UNKNOWN)),
           .signature = (char *) "LVM2_member", CONFIRMED),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "held by /dev/dm-0 (vg-root)", "dmsetup remove" } },
  { "write a device in doubt", BLOCK (.unknown = (char *) "no sysfs entry", CONFIRMED),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "cannot tell", "no sysfs entry" } },
  { "write a file on a read-only mount", REG (.read_only = TRUE, CONFIRMED), DS_SAFETY_WRITE,
    DS_ERROR_REFUSED, { "read-only" } },
  { "write a loop's backing file",
    REG (SHARES (SHARE (ABOVE, FILE_PATH " is the backing file of /dev/loop3", "mounted at /mnt",
                        FALSE, FILE_PATH, 0, 1 << 30, 0, 1 << 30)), CONFIRMED),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED,
    { "backing file of /dev/loop3", "which is mounted at /mnt", "stop what uses it" } },
  { "write a loop's backing file, the loop unused",
    REG (SHARES (SHARE (ABOVE, FILE_PATH " is the backing file of /dev/loop3", NULL,
                        FALSE, FILE_PATH, 0, 1 << 30, 0, 1 << 30)), CONFIRMED),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "backing file of /dev/loop3", "losetup -d" } },
  { "write a locked file", REG (.locked_by = (char *) "process 42 (qemu-system-x86, POSIX lock)",
                                CONFIRMED),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "process 42", "lock" } },
  { "write a swap file", REG (.in_use = (char *) "used as swap", .signature = (char *) "swap", CONFIRMED),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "used as swap" } },
  { "write a disk image", REG (.signature = (char *) "ext4", .signature_label = (char *) "root",
                               CONFIRMED),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "ext4 filesystem labelled “root”", "disk image", "--create" } },
  { "write an image with a table", REG (.signature = (char *) "gpt", CONFIRMED), DS_SAFETY_WRITE,
    DS_ERROR_REFUSED, { "gpt partition table" } },

  /* A device's signature is named, and confirming it is the user's call. */
  { "write a formatted device", BLOCK (.signature = (char *) "ext4"), DS_SAFETY_WRITE,
    DS_ERROR_REFUSED, { "an ext4 filesystem", "--destroy-data=" DEV } },
  { "write a formatted device, confirmed", BLOCK (.signature = (char *) "xfs", CONFIRMED),
    DS_SAFETY_WRITE, 0, { NULL } },

  /* Erase destroys data on purpose: a disk image may go, once named; the
   * rest holds. */
  { "erase a disk image", REG (.signature = (char *) "ext4"), DS_SAFETY_ERASE, DS_ERROR_REFUSED,
    { "erasing destroys", "ext4", "--destroy-data=" FILE_PATH } },
  { "erase a disk image, confirmed", REG (.signature = (char *) "ext4", CONFIRMED),
    DS_SAFETY_ERASE, 0, { NULL } },
  { "erase a loop's backing file",
    REG (SHARES (SHARE (ABOVE, FILE_PATH " is the backing file of /dev/loop3", NULL,
                        FALSE, FILE_PATH, 0, 1 << 30, 0, 1 << 30)), CONFIRMED),
    DS_SAFETY_ERASE, DS_ERROR_REFUSED, { "backing file" } },
  { "erase a mounted device", BLOCK (.in_use = (char *) "mounted at /", CONFIRMED),
    DS_SAFETY_ERASE, DS_ERROR_REFUSED, { "in use" } },

  /* Stacks: whatever shares the target's bytes (issue 21).  Above it. */
  { "read under a mounted loop",
    LOOP (SHARES (SHARE (ABOVE, "/dev/loop5 is the backing device of /dev/loop6", "mounted at /mnt/x",
                         FALSE, "/dev/loop5", 0, 4 * MiB, 0, 4 * MiB))),
    DS_SAFETY_READ, 0, { NULL } },
  { "write the backing of a mounted loop",
    LOOP (SHARES (SHARE (ABOVE, "/dev/loop5 is the backing device of /dev/loop6", "mounted at /mnt/x",
                         FALSE, "/dev/loop5", 0, 4 * MiB, 0, 4 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED,
    { "/dev/loop5 is the backing device of /dev/loop6, which is mounted at /mnt/x" } },
  { "erase the backing of a loop nothing uses",
    LOOP (SHARES (SHARE (ABOVE, "/dev/loop5 is the backing device of /dev/loop6", NULL,
                         FALSE, "/dev/loop5", 0, 4 * MiB, MiB, 2 * MiB))),
    DS_SAFETY_ERASE, DS_ERROR_REFUSED,
    { "backing device of /dev/loop6", "both cover bytes 1048576 to 2097151 of /dev/loop5",
      "losetup -d" } },
  { "write a disk whose partition is unused",
    LOOP (SHARES (SHARE (ABOVE, "/dev/loop5 has the partition /dev/loop5p1", NULL,
                         TRUE, "/dev/loop5", 0, 4 * MiB, MiB, 4 * MiB))),
    DS_SAFETY_WRITE, 0, { NULL } },
  { "write a disk whose partition is mounted",
    LOOP (SHARES (SHARE (ABOVE, "/dev/loop5 has the partition /dev/loop5p1", "mounted at /boot",
                         TRUE, "/dev/loop5", 0, 4 * MiB, MiB, 4 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "partition /dev/loop5p1, which is mounted at /boot" } },
  { "write a disk under a partition's loop",
    LOOP (SHARES (SHARE (ABOVE, "/dev/loop5 has the partition /dev/loop5p1", NULL,
                         TRUE, "/dev/loop5", 0, 4 * MiB, MiB, 4 * MiB),
                  SHARE (ABOVE, "/dev/loop5 has the partition /dev/loop5p1, which is the backing "
                         "device of /dev/loop9", NULL, FALSE, "/dev/loop5", 0, 4 * MiB, MiB, 4 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "backing device of /dev/loop9", "Detach" } },

  /* Below it: what it is built on counts when in use. */
  { "write a loop over a mounted loop",
    LOOP (SHARES (SHARE (BELOW, "/dev/loop5 is a loop over /dev/loop4", "mounted at /mnt/x",
                         TRUE, "/dev/loop4", 0, 4 * MiB, 0, 4 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED,
    { "/dev/loop5 is a loop over /dev/loop4, which is mounted at /mnt/x" } },
  { "write a loop over an unused loop",
    LOOP (SHARES (SHARE (BELOW, "/dev/loop5 is a loop over /dev/loop4", NULL,
                         TRUE, "/dev/loop4", 0, 4 * MiB, 0, 4 * MiB),
                  SHARE (BELOW, "/dev/loop5 is a loop over /dev/loop4, which is a loop over " IMG,
                         NULL, TRUE, IMG, 0, 4 * MiB, 0, 4 * MiB))),
    DS_SAFETY_WRITE, 0, { NULL } },
  { "write a loop over a locked image",
    LOOP (SHARES (SHARE (BELOW, "/dev/loop5 is a loop over " IMG, "locked by process 42 (qemu, OFD lock)",
                         TRUE, IMG, 0, 4 * MiB, 0, 64 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "locked by process 42" } },
  { "write a partition of a held disk",
    LOOP (SHARES (SHARE (BELOW, "/dev/loop5 is a partition of /dev/sdz", NULL, TRUE, DEV,
                         MiB, 5 * MiB, 0, 1 << 30),
                  SHARE (BESIDE, "/dev/loop5 is a partition of /dev/sdz, which is also held by "
                         "/dev/dm-0", NULL, FALSE, DEV, MiB, 5 * MiB, 0, UNKNOWN))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "also held by /dev/dm-0", "dmsetup remove" } },

  /* Beside it: another way to the same bytes, when they overlap. */
  { "write a second loop over a mounted loop's file",
    LOOP (SHARES (SHARE (BESIDE, "/dev/loop5 is a loop over " IMG ", which is also the backing file "
                         "of /dev/loop4", "mounted at /mnt/x", FALSE, IMG, 0, 64 * MiB, 0, 64 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED,
    { "also the backing file of /dev/loop4, which is mounted at /mnt/x" } },
  { "write an offset loop into a mounted loop's region",
    LOOP (SHARES (SHARE (BESIDE, "/dev/loop5 is a loop over " IMG ", which is also the backing file "
                         "of /dev/loop4", "mounted at /mnt/x", FALSE, IMG, MiB, 5 * MiB, 0, 8 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED,
    { "mounted at /mnt/x", "both cover bytes 1048576 to 5242879 of " IMG } },
  { "write an offset loop past a mounted loop's region",
    LOOP (SHARES (SHARE (BESIDE, "/dev/loop5 is a loop over " IMG ", which is also the backing file "
                         "of /dev/loop4", "mounted at /mnt/x", FALSE, IMG, 8 * MiB, 12 * MiB, 0, 8 * MiB))),
    DS_SAFETY_WRITE, 0, { NULL } },
  { "write an offset loop one byte into a mounted loop's region",
    LOOP (SHARES (SHARE (BESIDE, "/dev/loop5 is a loop over " IMG ", which is also the backing file "
                         "of /dev/loop4", "mounted at /mnt/x", FALSE, IMG, 8 * MiB - 1, 12 * MiB,
                         0, 8 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "both cover bytes 8388607 to 8388607" } },
  { "write a second loop over a file an unused loop shows",
    LOOP (SHARES (SHARE (BESIDE, "/dev/loop5 is a loop over " IMG ", which is also the backing file "
                         "of /dev/loop4", NULL, FALSE, IMG, 0, 64 * MiB, 0, 64 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "backing file of /dev/loop4", "losetup -d" } },
  { "write a partition beside a mounted one",
    LOOP (SHARES (SHARE (BESIDE, "/dev/loop5 is a partition of /dev/sdz, which also has the partition "
                         "/dev/sdz2", "mounted at /home", TRUE, DEV, MiB, 5 * MiB, 5 * MiB, 9 * MiB))),
    DS_SAFETY_WRITE, 0, { NULL } },
  { "write a partition that overlaps a mounted one",
    LOOP (SHARES (SHARE (BESIDE, "/dev/loop5 is a partition of /dev/sdz, which also has the partition "
                         "/dev/sdz2", "mounted at /home", TRUE, DEV, MiB, 5 * MiB, 4 * MiB, 9 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "/dev/sdz2, which is mounted at /home", "4194304 to 5242879" } },
  { "write a set whose bytes on a member are not known",
    LOOP (SHARES (SHARE (BESIDE, "/dev/loop5 is built on /dev/sdz, which also has the partition "
                         "/dev/sdz2", "mounted at /home", TRUE, DEV, 0, UNKNOWN, 5 * MiB, 9 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "mounted at /home" } },
  { "an unused loop first, a mounted one after: the mounted one is named",
    LOOP (SHARES (SHARE (ABOVE, "/dev/loop5 is the backing device of /dev/loop6", NULL,
                         FALSE, "/dev/loop5", 0, 4 * MiB, 0, 4 * MiB),
                  SHARE (ABOVE, "/dev/loop5 is the backing device of /dev/loop6, which is the backing "
                         "device of /dev/loop7", "mounted at /mnt/y", FALSE, "/dev/loop5",
                         0, 4 * MiB, 0, 4 * MiB))),
    DS_SAFETY_WRITE, DS_ERROR_REFUSED, { "/dev/loop7, which is mounted at /mnt/y" } },

  /* --create: a new file only. */
  { "create a new file", { .path = (char *) "/data/new.bin", .kind = DS_FACTS_MISSING,
                           .stat_errno = ENOENT },
    DS_SAFETY_CREATE, 0, { NULL } },
  { "create over a file", REG (CONFIRMED), DS_SAFETY_CREATE, DS_ERROR_REFUSED,
    { "exists", "never replaces" } },
  { "create over a device", BLOCK (), DS_SAFETY_CREATE, DS_ERROR_REFUSED, { "exists" } },
  { "create through a dangling symlink",
    { .path = (char *) "/data/link", .kind = DS_FACTS_MISSING, .stat_errno = ENOENT,
      .dangling_link = (char *) "/data/gone.bin" },
    DS_SAFETY_CREATE, DS_ERROR_REFUSED, { "/data/link", "symbolic link", "/data/gone.bin",
                                          "never follows or replaces" } },
  { "read through a dangling symlink",
    { .path = (char *) "/data/link", .kind = DS_FACTS_MISSING, .stat_errno = ENOENT,
      .dangling_link = (char *) "/data/gone.bin" },
    DS_SAFETY_READ, DS_ERROR_NOT_FOUND, { "does not exist", "symbolic link to /data/gone.bin" } },
  { "create where one cannot look", { .path = (char *) "/root/new", .kind = DS_FACTS_MISSING,
                                      .stat_errno = EACCES },
    DS_SAFETY_CREATE, DS_ERROR_PERMISSION, { "/root/new" } },
};

START_TEST (test_decide_table)
{
  const Row *row = &rows[_i];
  g_autoptr (GError) error = NULL;
  gboolean allowed = ds_safety_decide (&row->facts, row->intent, &error);

  if (row->code == 0)
    {
      ck_assert_msg (allowed, "%s: refused: %s", row->name, error ? error->message : "");
      ck_assert_ptr_null (error);
      return;
    }

  ck_assert_msg (!allowed, "%s: allowed", row->name);
  ck_assert_msg (g_error_matches (error, DS_ERROR, row->code), "%s: code %d, want %d: %s",
                 row->name, error->code, row->code, error->message);
  for (unsigned w = 0; w < G_N_ELEMENTS (row->words) && row->words[w] != NULL; w++)
    ck_assert_msg (strstr (error->message, row->words[w]) != NULL, "%s: “%s” not in: %s",
                   row->name, row->words[w], error->message);
}
END_TEST

/* The probe on real files: what a file is, whether a confirmation names
 * it (a symlink does, a copy does not), and its signature. */
START_TEST (test_probe_files)
{
  g_autofree char *file = ds_test_make_file ("probe.bin", 1 << 20, 1);
  g_autofree char *copy = ds_test_make_file ("copy.bin", 1 << 20, 1);
  g_autofree char *link = g_build_filename (ds_test_scratch_dir (), "probe-link", NULL);
  g_autofree char *image = ds_test_make_file ("probe.img", 8 << 20, 2);
  g_autofree char *dangling = g_build_filename (ds_test_scratch_dir (), "dangling", NULL);
  DsTargetFacts facts;

  ck_assert_int_eq (symlink (file, link), 0);

  ds_safety_probe (&facts, file, link, FALSE);
  ck_assert_int_eq (facts.kind, DS_FACTS_FILE);
  ck_assert_uint_eq (facts.size_bytes, 1 << 20);
  ck_assert (facts.confirm_matches);
  ck_assert_ptr_null (facts.signature);   /* not probed for a read */
  ds_target_facts_clear (&facts);

  ds_safety_probe (&facts, link, copy, TRUE);
  ck_assert_int_eq (facts.kind, DS_FACTS_FILE);
  ck_assert (!facts.confirm_matches);
  ck_assert_ptr_null (facts.signature);
  ck_assert_uint_eq (facts.n_shares, 0);   /* no loop over it */
  ck_assert_ptr_null (facts.locked_by);
  ck_assert_ptr_null (facts.in_use);
  ds_target_facts_clear (&facts);

  ds_test_mkfs_ext4 (image);
  ds_safety_probe (&facts, image, image, TRUE);
  ck_assert_str_eq (facts.signature, "ext4");
  ck_assert_str_eq (facts.signature_label, "dstest");
  ds_target_facts_clear (&facts);

  ds_safety_probe (&facts, ds_test_scratch_dir (), NULL, TRUE);
  ck_assert_int_eq (facts.kind, DS_FACTS_OTHER);
  ck_assert_str_eq (facts.other_what, "a folder");
  ds_target_facts_clear (&facts);

  ds_safety_probe (&facts, "/nonexistent/x", NULL, TRUE);
  ck_assert_int_eq (facts.kind, DS_FACTS_MISSING);
  ck_assert_int_eq (facts.stat_errno, ENOENT);
  ck_assert_ptr_null (facts.dangling_link);
  ds_target_facts_clear (&facts);

  /* A symlink to nothing is something: where it points is said. */
  ck_assert_int_eq (symlink ("/nonexistent/y", dangling), 0);
  ds_safety_probe (&facts, dangling, NULL, TRUE);
  ck_assert_int_eq (facts.kind, DS_FACTS_MISSING);
  ck_assert_int_eq (facts.stat_errno, ENOENT);
  ck_assert_str_eq (facts.dangling_link, "/nonexistent/y");
  ds_target_facts_clear (&facts);
}
END_TEST

/* A lock another process holds on the file is found, with its name. */
START_TEST (test_probe_lock)
{
  g_autofree char *file = ds_test_make_file ("locked.bin", 1 << 20, 3);
  DsTargetFacts facts;
  int status;
  int pipefd[2];
  pid_t pid;
  char c;

  ck_assert_int_eq (pipe (pipefd), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0)
    {
      int fd = open (file, O_RDWR);
      struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

      if (fd < 0 || fcntl (fd, F_SETLK, &lock) != 0)
        _exit (1);
      (void) write (pipefd[1], "x", 1);
      for (;;)
        pause ();   /* until the parent kills it */
    }
  ck_assert_int_eq (read (pipefd[0], &c, 1), 1);

  ds_safety_probe (&facts, file, file, TRUE);
  ck_assert_msg (facts.locked_by != NULL, "the child's lock was not found");
  ck_assert_msg (strstr (facts.locked_by, "POSIX") != NULL, "%s", facts.locked_by);
  {
    g_autofree char *pid_text = g_strdup_printf ("%d", (int) pid);

    ck_assert_msg (strstr (facts.locked_by, pid_text) != NULL, "%s", facts.locked_by);
  }
  ds_target_facts_clear (&facts);

  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  close (pipefd[0]);
  close (pipefd[1]);

  ds_safety_probe (&facts, file, file, TRUE);
  ck_assert_ptr_null (facts.locked_by);
  ds_target_facts_clear (&facts);
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("safety");
  TCase *tc = tcase_create ("safety");

  ds_test_init ("safety");
  tcase_add_loop_test (tc, test_decide_table, 0, G_N_ELEMENTS (rows));
  tcase_add_test (tc, test_probe_files);
  tcase_add_test (tc, test_probe_lock);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
