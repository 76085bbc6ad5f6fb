/* ds-test-util.h: loop devices and temporary files for integration tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Call first in main(): makes the suite's scratch folder (under /var/tmp, a
 * real filesystem that takes O_DIRECT) and arranges that ds_test_cleanup()
 * runs at exit and on SIGINT/SIGTERM/SIGABRT/SIGSEGV. */
void      ds_test_init        (const char *suite_name);
/* Detaches every loop device whose backing file is in the scratch folder
 * (so also those a crashed, forked test left behind) and removes the folder.
 * Idempotent. */
void      ds_test_cleanup     (void);
const char *ds_test_scratch_dir (void);

gboolean  ds_test_is_root     (void);
/* For root-only test programs: when not root, prints a TAP skip with the
 * reason and exits 0. */
void      ds_test_require_root (const char *why);

/* From now on, in this process and the threads it starts, io_uring_setup()
 * fails with ENOSYS, as on a kernel built without io_uring (a seccomp
 * filter: no root needed).  For a forked test case only: it cannot be
 * undone.  FALSE, with errno, where the filter cannot be installed (an
 * architecture this helper does not know: ENOTSUP). */
gboolean  ds_test_deny_io_uring (void);

/* @name in the scratch folder (not created). */
char     *ds_test_scratch_path (const char *name);
/* The names in @path, sorted, joined by spaces ("" when empty). */
char     *ds_test_list_dir    (const char *path);
/* A DOS partition table by hand at the start of @path (a device or an
 * image file): one Linux partition from sector 2048, and the 0x55AA mark. */
void      ds_test_write_mbr   (const char *path);

/* A file of @size_bytes in the scratch folder filled with pseudo-random data
 * from @seed (so checksums mean something).  Returns its path. */
char     *ds_test_make_file   (const char *name,
                               uint64_t    size_bytes,
                               uint64_t    seed);

/* The same in a folder of the suite's under /dev/shm (tmpfs, which takes
 * O_DIRECT since Linux 6.6): a loop device over it is as fast as memory,
 * so a test that times its own code is not timing the host's disk.
 * ds_test_cleanup() detaches its loops and removes it too. */
char     *ds_test_make_ram_file (const char *name,
                                 uint64_t    size_bytes,
                                 uint64_t    seed);

/* Attaches @backing with losetup --direct-io=on (and -r when @read_only);
 * returns "/dev/loopN".  Aborts the test on failure. */
char     *ds_test_loop_attach (const char *backing,
                               gboolean    read_only);
/* Attaches @backing read-write with direct I/O on or off as asked, and
 * waits for udev to have probed it (its reads are not the test's). */
char     *ds_test_loop_attach_dio (const char *backing,
                                   gboolean    direct_io);
/* Attaches @backing (a file or a device: loops over loops are detached
 * by ds_test_cleanup() too, those built last first) with losetup
 * --direct-io=on and the NULL-terminated @options ("-o", "1048576",
 * "--sizelimit", "4194304"...).  Aborts the test on failure. */
char     *ds_test_loop_attach_opts (const char        *backing,
                                    const char *const *options);
/* The device-mapper name for @what that ds_test_cleanup() removes:
 * "dstest-PID-WHAT". */
char     *ds_test_dm_name     (const char *what);
/* ds_test_make_file() + ds_test_loop_attach(). */
char     *ds_test_loop_new    (uint64_t    size_bytes,
                               gboolean    read_only);
void      ds_test_loop_detach (const char *device);

/* SHA-256 of a whole file or device, read with O_DIRECT (not the page
 * cache).  Hex string. */
char     *ds_test_checksum    (const char *path);

/* Runs a command line (argv), returns the exit status (-1 if killed);
 * stdout/stderr go to *ret_out / *ret_err when not NULL. */
int       ds_test_run         (const char *const *argv,
                               char             **ret_out,
                               char             **ret_err);

/* Runs the built diskscope-cli with the NULL-terminated arguments; returns
 * its exit status (-1 if killed) like ds_test_run(). */
int       ds_test_cli         (char       **ret_out,
                               char       **ret_err,
                               const char  *first,
                               ...) G_GNUC_NULL_TERMINATED;
/* The same with an argv array (NULL-terminated, without the CLI itself),
 * run through `sh -c` with @redirect (">/dev/full", ">&-", ...) applied to
 * the CLI when it is not NULL. */
int       ds_test_cli_argv    (const char *const *args,
                               const char        *redirect,
                               char             **ret_out,
                               char             **ret_err);

/* A TAP comment: each line of the text after "# ", flushed at once (a
 * failing forked test ends with _exit). */
void      ds_test_note        (const char *format,
                               ...) G_GNUC_PRINTF (1, 2);

/* Runs @argv and fails the test, with its stderr, unless it exits 0. */
void      ds_test_run_ok      (const char *const *argv);

/* mkfs.ext4 on @device (a block device or an image file): label "dstest",
 * no reserved blocks, inode tables written now (nothing lazy runs behind
 * the test's back). */
void      ds_test_mkfs_ext4   (const char *device);

/* Mounts @device (noatime) on the scratch folder's @name and returns that
 * folder.  ds_test_cleanup() unmounts it, from the parent, even when the
 * forked test that mounted it failed. */
char     *ds_test_mount       (const char *device,
                               const char *name);

/* ds_test_mkfs_ext4() then ds_test_mount(): a fresh filesystem, mounted. */
char     *ds_test_mount_ext4  (const char *device,
                               const char *name);

/* The built diskscope-cli (from the DISKSCOPE_CLI environment variable
 * meson sets, or next to the test). */
const char *ds_test_cli_path  (void);

/* Runs a Check suite with TAP output on stdout (meson's protocol: 'tap'),
 * forking each test; returns the exit status for main(). */
#include <check.h>
int       ds_test_run_suite   (Suite *suite);

G_END_DECLS
