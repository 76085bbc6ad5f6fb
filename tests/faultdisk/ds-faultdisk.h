/* ds-faultdisk.h: the fault-injecting test disk, from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Starts the faultdisk FUSE server (tests/faultdisk/faultdisk.c) on a
 * mountpoint in the test's scratch folder, attaches its file to a loop
 * device with `losetup --direct-io=on`, and sends it faults.  Everything is
 * torn down by ds_faultdisk_free(), and, for a test that failed or crashed
 * before that, by a sweep at exit and on fatal signals of the test program
 * (ds_faultdisk_init()).
 *
 *   g_autoptr (DsFaultDisk) fd = ds_faultdisk_new (32 << 20, 7);
 *   const char *dev = ds_faultdisk_attach (fd, FALSE);
 *   ds_faultdisk_control (fd, "read-error %d %d", 1 << 20, 64 << 10);
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct _DsFaultDisk DsFaultDisk;

/* Call in main() after ds_test_init(): arranges the sweep (detach the loop
 * devices over faultdisk files, stop and unmount the servers, unmount
 * whatever else a failed test left mounted in the scratch folder) at exit and
 * on SIGINT/SIGTERM/SIGABRT/SIGSEGV, in the main process and in forked
 * tests. */
void         ds_faultdisk_init        (void);

/* TRUE when the program is built and /dev/fuse exists; else FALSE with why
 * (for a TAP skip). */
gboolean     ds_faultdisk_available   (char      **ret_reason);

/* Starts a server for a disk of @size_bytes (a multiple of 4096) held in
 * memory, filled with pseudo-random bytes from @seed; waits until it is
 * mounted.  Aborts the test on failure. */
DsFaultDisk *ds_faultdisk_new         (uint64_t     size_bytes,
                                       uint64_t     seed);
/* The three above in one, as most tests' fixtures want it: the disk of
 * ds_faultdisk_new() attached read-write; *@ret_device is "/dev/loopN"
 * (owned by the disk).  Aborts the test, saying why, when there is none. */
DsFaultDisk *ds_faultdisk_start       (uint64_t     size_bytes,
                                       uint64_t     seed,
                                       const char **ret_device);
/* MOUNT/disk: the served file. */
const char  *ds_faultdisk_get_file    (DsFaultDisk *self);

/* losetup --find --show --direct-io=on (-r when @read_only) over the file;
 * returns "/dev/loopN" (owned by @self).  Aborts the test on failure. */
const char  *ds_faultdisk_attach      (DsFaultDisk *self,
                                       gboolean     read_only);
const char  *ds_faultdisk_get_device  (DsFaultDisk *self);
/* Whether the loop device does direct I/O (/sys/block/loopN/loop/dio). */
gboolean     ds_faultdisk_is_direct_io (DsFaultDisk *self);
/* losetup -d; the test may call it mid-run.  TRUE when detached (or when
 * the kernel will detach at the last close). */
gboolean     ds_faultdisk_detach      (DsFaultDisk *self);

/* Writes one command line to MOUNT/ctl (see faultdisk.c):
 *   "read-error START LEN", "write-error START LEN", "delay US",
 *   "slow-read START LEN US",
 *   "seek BASE_US US_PER_GIB", "seek-sqrt BASE_US FULL_US [MAX_BYTES]",
 *   "actuators N SERVICE_US", "write-cache BYTES FAST_BPS MEDIA_BPS",
 *   "read-cache BYTES HIT_US MISS_US", "write-stall PERIOD_US LENGTH_US",
 *   "discard drop|zero|ones", "vanish", "clear", "reset-counters".
 * FALSE (with a message on stderr) when the server refused it. */
gboolean     ds_faultdisk_control     (DsFaultDisk *self,
                                       const char  *format,
                                       ...) G_GNUC_PRINTF (2, 3);
/* A counter from MOUNT/ctl: "reads", "writes", "read_bytes",
 * "write_bytes", "read_errors", "write_errors", "inflight_max",
 * "discards", "discard_bytes", ...;
 * G_MAXUINT64 if unknown. */
uint64_t     ds_faultdisk_counter     (DsFaultDisk *self,
                                       const char  *name);

/* Kills the server (SIGKILL): the disk is unplugged, every later I/O on the
 * loop device fails at once (ENOTCONN from FUSE, EIO from the loop). */
void         ds_faultdisk_kill        (DsFaultDisk *self);

/* Detaches, unmounts, waits for the server.  NULL-safe. */
void         ds_faultdisk_free        (DsFaultDisk *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsFaultDisk, ds_faultdisk_free)

/* The sweep ds_faultdisk_init() arranges; idempotent. */
void         ds_faultdisk_cleanup_all (void);

/* A program (usually diskscope-cli) running in the background, its stdout
 * and stderr going to files in the scratch folder, for tests that act on
 * it mid-run (signals, faults) and time how long it takes to finish. */
typedef struct _DsFaultProc DsFaultProc;

DsFaultProc *ds_fault_proc_spawn      (const char *const *argv);
void         ds_fault_proc_signal     (DsFaultProc       *proc,
                                       int                signo);
/* Waits up to @timeout_ms.  Returns the exit status, -1 if killed by a
 * signal, -2 if still running after @timeout_ms (it is then killed). */
int          ds_fault_proc_wait       (DsFaultProc       *proc,
                                       int                timeout_ms);
/* Monotonic time (us) the process was seen gone; 0 while it runs. */
int64_t      ds_fault_proc_end_time   (DsFaultProc       *proc);
/* What it printed (after ds_fault_proc_wait()). */
char        *ds_fault_proc_stdout     (DsFaultProc       *proc);
char        *ds_fault_proc_stderr     (DsFaultProc       *proc);
/* Kills it if it still runs; removes the files. NULL-safe. */
void         ds_fault_proc_free       (DsFaultProc       *proc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsFaultProc, ds_fault_proc_free)

/* JSON members by a dotted path ("results.read.ios"), NULL if any part is
 * missing.  The node belongs to @root. */
JsonNode    *ds_fault_json_get        (JsonNode          *root,
                                       const char        *path);
/* Parses @text; NULL (with a message on stderr) if it is not JSON. */
JsonNode    *ds_fault_json_parse      (const char        *text);

G_END_DECLS
