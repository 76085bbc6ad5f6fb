/* faultdisk.c: a FUSE file system serving one file that fails on purpose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests attach MOUNT/disk with `losetup --direct-io=on` to get a real block
 * device whose behaviour they control by writing lines to MOUNT/ctl:
 *
 *   read-error START LEN    reads touching [START, START+LEN) fail with EIO
 *   write-error START LEN   same for writes
 *   delay US                every I/O takes at least US microseconds
 *   seek BASE_US US_PER_GIB a spinning disk: each I/O waits
 *                           BASE_US + US_PER_GIB x distance from the end of
 *                           the previous I/O (in GiB)
 *   slow-read START LEN US  reads touching [START, START+LEN) take US
 *                           microseconds longer (a weak area; up to 32)
 *   seek-sqrt BASE_US FULL_US [MAX_BYTES]
 *                           a spinning disk whose seek grows with the
 *                           square root of the distance: each I/O waits
 *                           BASE_US + FULL_US x sqrt(distance / disk size),
 *                           the distance measured the same way.  With
 *                           MAX_BYTES, only I/Os that small follow the
 *                           model and move the heads; larger ones are
 *                           served at once (so the page-cache reads of
 *                           programs probing block devices, 4 KiB and up,
 *                           leave a test's one-sector reads undisturbed)
 *   actuators N SERVICE_US  a disk that serves N I/Os at once, each in
 *                           SERVICE_US (a multi-actuator disk, a small
 *                           array): IOPS grow with the queue depth up to N
 *                           and then stay at N / SERVICE_US while the
 *                           latency grows (Little's law); 0 0 turns it off
 *   write-cache BYTES FAST_BPS MEDIA_BPS
 *                           a write-back cache of BYTES that takes writes at
 *                           FAST_BPS bytes/s and drains to the media at
 *                           MEDIA_BPS: writes go at FAST_BPS until it is
 *                           full (after BYTES × FAST/(FAST − MEDIA) bytes),
 *                           then at MEDIA_BPS; idle time drains it, and an
 *                           fsync (a FLUSH) returns once it is drained; reads
 *                           are not affected.  0 0 0 turns it off
 *   read-cache BYTES HIT_US MISS_US
 *                           a read cache of BYTES holding the most recently
 *                           read 64 KiB chunks (LRU): a read whose chunks
 *                           are all held takes HIT_US, any other MISS_US
 *                           (and then holds them); 0 0 0 turns it off
 *   slow-moment START LEN US MS [MAX_BYTES]
 *                           one moment of noise: the first read touching
 *                           [START, START+LEN) (of at most MAX_BYTES, when
 *                           given) starts it, and for MS milliseconds reads
 *                           touching the range take US microseconds longer;
 *                           then the range is as before (another program's
 *                           burst of I/O)
 *   write-stall PERIOD_US LENGTH_US
 *                           every PERIOD_US (from this command on), writes
 *                           stall for the first LENGTH_US of the period: a
 *                           write arriving then waits until it ends (a cache
 *                           flushing to the media now and then); 0 0 off
 *   discard drop|zero|ones  what a discard (the loop device's punched hole,
 *                           a write-zeroes) does: drop (the default, as a
 *                           filesystem that cannot punch holes behaves
 *                           under a loop device) accepts it and keeps every
 *                           byte; zero makes the range read as zeros; ones
 *                           makes it read as 0xff bytes (a device that
 *                           returns neither zeros nor the old data).  A
 *                           write-zeroes (FALLOC_FL_ZERO_RANGE) always zeros
 *   vanish                  every later I/O on disk fails with EIO
 *   clear                   no errors, no delay, not vanished
 *
 * Reading MOUNT/ctl gives counters ("reads N", "writes N", "read_errors N",
 * "write_errors N", "inflight_max N", "vanished 0|1", "discards N",
 * "discard_bytes N", ...), one per line.
 *
 * Usage: faultdisk [--size BYTES] [--seed N] [--backing FILE] MOUNTPOINT
 * Runs in the foreground, multithreaded (so queued I/O with a delay
 * overlaps), until unmounted or sent SIGINT/SIGTERM.
 *
 * Only for tests: it is never installed.
 */
#define FUSE_USE_VERSION 312

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <linux/falloc.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_RANGES 32
#define GIB (1024.0 * 1024.0 * 1024.0)

typedef struct {
  uint64_t start;
  uint64_t end;      /* exclusive */
} Range;

typedef struct {
  /* Fixed at start. */
  uint64_t  size_bytes;
  uint8_t  *memory;          /* the disk's bytes when not backed by a file */
  int       backing_fd;      /* -1 when in memory */

  /* Changed through ctl; all under lock. */
  pthread_mutex_t lock;
  Range     read_errors[MAX_RANGES];
  unsigned  n_read_errors;
  Range     write_errors[MAX_RANGES];
  unsigned  n_write_errors;
  uint64_t  delay_us;
  Range     slow_reads[MAX_RANGES];
  uint64_t  slow_read_us[MAX_RANGES];
  unsigned  n_slow_reads;
  Range     moment;          /* slow-moment: end 0 when none */
  uint64_t  moment_us;
  double    moment_s;
  double    moment_t0_s;     /* 0: not begun */
  uint64_t  moment_max_bytes; /* 0: any read begins it */
  uint64_t  seek_base_us;
  uint64_t  seek_us_per_gib;
  uint64_t  seek_sqrt_base_us;
  uint64_t  seek_sqrt_full_us;
  uint64_t  seek_sqrt_max_bytes;     /* 0: every I/O */
  int       vanished;
  uint64_t  last_end;        /* where the previous I/O ended */
  unsigned  actuators;       /* 0: no limit */
  uint64_t  actuator_us;
  unsigned  actuators_busy;
  pthread_cond_t actuator_free;
  uint64_t  cache_bytes;     /* 0: no write cache */
  double    cache_fast_bps;
  double    cache_media_bps;
  double    cache_fill;      /* bytes held at cache_last_s (may exceed the
                              * size: writes waiting for room) */
  double    cache_last_s;
  double    cache_link_free_s; /* the write path is busy until then */
  uint64_t  rcache_chunks;   /* capacity in chunks; 0: no read cache */
  uint64_t  rcache_hit_us;
  uint64_t  rcache_miss_us;
  int32_t  *rcache_prev;     /* LRU list over chunk numbers, -1 ends */
  int32_t  *rcache_next;
  uint8_t  *rcache_held;
  int32_t   rcache_head;     /* most recent */
  int32_t   rcache_tail;
  uint64_t  rcache_count;
  uint64_t  stall_period_us;
  uint64_t  stall_length_us;
  double    stall_t0_s;
  int       discard_mode;    /* DISCARD_DROP, _ZERO, _ONES */

  /* Counters. */
  uint64_t  reads;
  uint64_t  writes;
  uint64_t  read_bytes;
  uint64_t  write_bytes;
  uint64_t  read_fail;
  uint64_t  write_fail;
  unsigned  inflight;
  unsigned  inflight_max;
  uint64_t  discards;
  uint64_t  discard_bytes;
} Disk;

enum { DISCARD_DROP, DISCARD_ZERO, DISCARD_ONES };

static Disk disk = {
  .backing_fd = -1,
  .lock = PTHREAD_MUTEX_INITIALIZER,
  .actuator_free = PTHREAD_COND_INITIALIZER,
};

static const char *DISK_PATH = "/disk";
static const char *CTL_PATH = "/ctl";

/* xorshift64*: pseudo-random content so checksums mean something. */
static void
fill_random (uint8_t *buf, uint64_t len, uint64_t seed)
{
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;

  for (uint64_t i = 0; i + 8 <= len; i += 8)
    {
      uint64_t v;

      x ^= x >> 12;
      x ^= x << 25;
      x ^= x >> 27;
      v = x * 0x2545F4914F6CDD1Dull;
      memcpy (buf + i, &v, 8);
    }
}

static int
overlaps (const Range *ranges, unsigned n, uint64_t off, uint64_t len)
{
  for (unsigned i = 0; i < n; i++)
    if (off < ranges[i].end && off + len > ranges[i].start)
      return 1;
  return 0;
}

static void
sleep_us (uint64_t us)
{
  struct timespec ts = {
    .tv_sec = (time_t) (us / 1000000),
    .tv_nsec = (long) (us % 1000000) * 1000,
  };

  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Under disk.lock: how long a write of @len waits in the write-cache model.
 * The cache takes it at the fast rate once the write path is free; its
 * bytes drain at the media rate; a write that does not fit waits for room
 * (the fill is then above the size until the drain catches up). */
static uint64_t
cache_write_wait_us (uint64_t len)
{
  double now = now_s ();
  double start = now > disk.cache_link_free_s ? now : disk.cache_link_free_s;
  double done = start + (double) len / disk.cache_fast_bps;

  if (done > disk.cache_last_s)
    {
      disk.cache_fill -= (done - disk.cache_last_s) * disk.cache_media_bps;
      if (disk.cache_fill < 0)
        disk.cache_fill = 0;
      disk.cache_last_s = done;
    }
  disk.cache_fill += (double) len;
  if (disk.cache_fill > (double) disk.cache_bytes)
    done += (disk.cache_fill - (double) disk.cache_bytes) / disk.cache_media_bps;
  disk.cache_link_free_s = done;

  return (uint64_t) ((done - now) * 1e6);
}

#define RCACHE_CHUNK (64 * 1024)

static void
rcache_unlink (int32_t c)
{
  if (disk.rcache_prev[c] >= 0)
    disk.rcache_next[disk.rcache_prev[c]] = disk.rcache_next[c];
  else
    disk.rcache_head = disk.rcache_next[c];
  if (disk.rcache_next[c] >= 0)
    disk.rcache_prev[disk.rcache_next[c]] = disk.rcache_prev[c];
  else
    disk.rcache_tail = disk.rcache_prev[c];
}

static void
rcache_push_front (int32_t c)
{
  disk.rcache_prev[c] = -1;
  disk.rcache_next[c] = disk.rcache_head;
  if (disk.rcache_head >= 0)
    disk.rcache_prev[disk.rcache_head] = c;
  disk.rcache_head = c;
  if (disk.rcache_tail < 0)
    disk.rcache_tail = c;
}

/* Under disk.lock: the read cache's delay for [off, off+len), and the
 * chunks it touched become the most recent. */
static uint64_t
rcache_read_us (uint64_t off,
                uint64_t len)
{
  int32_t first = (int32_t) (off / RCACHE_CHUNK);
  int32_t last = (int32_t) ((off + len - 1) / RCACHE_CHUNK);
  int hit = 1;

  for (int32_t c = first; c <= last; c++)
    {
      if (disk.rcache_held[c])
        rcache_unlink (c);
      else
        {
          hit = 0;
          disk.rcache_held[c] = 1;
          disk.rcache_count++;
        }
      rcache_push_front (c);
    }
  while (disk.rcache_count > disk.rcache_chunks)
    {
      int32_t old = disk.rcache_tail;

      rcache_unlink (old);
      disk.rcache_held[old] = 0;
      disk.rcache_count--;
    }

  return hit ? disk.rcache_hit_us : disk.rcache_miss_us;
}

static int
rcache_set (uint64_t bytes,
            uint64_t hit_us,
            uint64_t miss_us)
{
  uint64_t n = disk.size_bytes / RCACHE_CHUNK + 1;

  free (disk.rcache_prev);
  free (disk.rcache_next);
  free (disk.rcache_held);
  disk.rcache_prev = disk.rcache_next = NULL;
  disk.rcache_held = NULL;
  disk.rcache_chunks = 0;
  disk.rcache_count = 0;
  disk.rcache_head = disk.rcache_tail = -1;
  if (bytes == 0)
    return 0;
  disk.rcache_prev = malloc (n * sizeof (int32_t));
  disk.rcache_next = malloc (n * sizeof (int32_t));
  disk.rcache_held = calloc (n, 1);
  if (disk.rcache_prev == NULL || disk.rcache_next == NULL || disk.rcache_held == NULL)
    return -ENOMEM;
  disk.rcache_chunks = bytes / RCACHE_CHUNK;
  disk.rcache_hit_us = hit_us;
  disk.rcache_miss_us = miss_us;
  return 0;
}

static void *
fd_init (struct fuse_conn_info *conn,
         struct fuse_config    *cfg)
{
  /* Let many asynchronous direct I/Os (loop with --direct-io=on at queue
   * depth 32) reach us at once: the kernel's default is 12. */
  conn->max_background = 128;
  conn->congestion_threshold = 96;
  cfg->direct_io = 1;
  cfg->attr_timeout = 0;
  cfg->entry_timeout = 0;
  cfg->negative_timeout = 0;
  return NULL;
}

static int
fd_getattr (const char            *path,
            struct stat           *st,
            struct fuse_file_info *fi)
{
  memset (st, 0, sizeof *st);
  st->st_uid = getuid ();
  st->st_gid = getgid ();

  if (strcmp (path, "/") == 0)
    {
      st->st_mode = S_IFDIR | 0755;
      st->st_nlink = 2;
    }
  else if (strcmp (path, DISK_PATH) == 0)
    {
      st->st_mode = S_IFREG | 0600;
      st->st_nlink = 1;
      st->st_size = (off_t) disk.size_bytes;
      st->st_blksize = 4096;
      st->st_blocks = (blkcnt_t) (disk.size_bytes / 512);
    }
  else if (strcmp (path, CTL_PATH) == 0)
    {
      st->st_mode = S_IFREG | 0600;
      st->st_nlink = 1;
      st->st_size = 4096;
    }
  else
    return -ENOENT;

  return 0;
}

static int
fd_readdir (const char               *path,
            void                     *buf,
            fuse_fill_dir_t           filler,
            off_t                     offset,
            struct fuse_file_info    *fi,
            enum fuse_readdir_flags   flags)
{
  if (strcmp (path, "/") != 0)
    return -ENOENT;

  filler (buf, ".", NULL, 0, 0);
  filler (buf, "..", NULL, 0, 0);
  filler (buf, DISK_PATH + 1, NULL, 0, 0);
  filler (buf, CTL_PATH + 1, NULL, 0, 0);
  return 0;
}

static int
fd_open (const char            *path,
         struct fuse_file_info *fi)
{
  if (strcmp (path, DISK_PATH) != 0 && strcmp (path, CTL_PATH) != 0)
    return -ENOENT;

  /* No page cache: every read and write reaches us, so errors and delays
   * are seen by whoever does the I/O. */
  fi->direct_io = 1;
  fi->keep_cache = 0;
  fi->nonseekable = 0;
  return 0;
}

static int
fd_truncate (const char            *path,
             off_t                  size,
             struct fuse_file_info *fi)
{
  /* The disk has a fixed size; accept "truncating" to it (O_TRUNC). */
  if (strcmp (path, CTL_PATH) == 0)
    return 0;
  if (strcmp (path, DISK_PATH) == 0 && (uint64_t) size == disk.size_bytes)
    return 0;
  return -EPERM;
}

/* Waits as the fault model says, counts, and decides whether this I/O
 * fails.  Returns 0 or -EIO. */
static int
io_begin (int      is_write,
          uint64_t off,
          uint64_t len)
{
  uint64_t wait_us;
  int failed;
  int actuator = 0;

  pthread_mutex_lock (&disk.lock);
  {
    uint64_t distance = off > disk.last_end ? off - disk.last_end : disk.last_end - off;
    int modelled = disk.seek_sqrt_max_bytes == 0 || len <= disk.seek_sqrt_max_bytes;

    wait_us = disk.delay_us + disk.seek_base_us
              + (uint64_t) ((double) disk.seek_us_per_gib * (double) distance / GIB);
    if (modelled && (disk.seek_sqrt_base_us != 0 || disk.seek_sqrt_full_us != 0))
      wait_us += disk.seek_sqrt_base_us
                 + (uint64_t) ((double) disk.seek_sqrt_full_us *
                               sqrt ((double) distance / (double) disk.size_bytes));
    if (modelled)
      disk.last_end = off + len;
    if (!is_write)
      for (unsigned i = 0; i < disk.n_slow_reads; i++)
        if (off < disk.slow_reads[i].end && off + len > disk.slow_reads[i].start)
          wait_us += disk.slow_read_us[i];
    if (!is_write && disk.moment.end != 0 && off < disk.moment.end && off + len > disk.moment.start)
      {
        double now = now_s ();

        if (disk.moment_t0_s == 0 && (disk.moment_max_bytes == 0 || len <= disk.moment_max_bytes))
          disk.moment_t0_s = now;
        if (disk.moment_t0_s != 0 && now - disk.moment_t0_s < disk.moment_s)
          wait_us += disk.moment_us;
      }
    if (is_write)
      failed = disk.vanished || overlaps (disk.write_errors, disk.n_write_errors, off, len);
    else
      failed = disk.vanished || overlaps (disk.read_errors, disk.n_read_errors, off, len);
    if (is_write)
      {
        disk.writes++;
        disk.write_fail += failed;
      }
    else
      {
        disk.reads++;
        disk.read_fail += failed;
      }
    disk.inflight++;
    if (disk.inflight > disk.inflight_max)
      disk.inflight_max = disk.inflight;
    if (is_write && disk.cache_bytes != 0)
      wait_us += cache_write_wait_us (len);
    if (!is_write && disk.rcache_chunks != 0 && len > 0)
      wait_us += rcache_read_us (off, len);
    if (is_write && disk.stall_period_us != 0)
      {
        uint64_t in_period = (uint64_t) ((now_s () - disk.stall_t0_s) * 1e6) % disk.stall_period_us;

        if (in_period < disk.stall_length_us)
          wait_us += disk.stall_length_us - in_period;
      }
    if (disk.actuators != 0)
      {
        /* Wait for a free actuator; it is ours for the service time. */
        while (disk.actuators_busy >= disk.actuators)
          pthread_cond_wait (&disk.actuator_free, &disk.lock);
        disk.actuators_busy++;
        wait_us += disk.actuator_us;
        actuator = 1;
      }
  }
  pthread_mutex_unlock (&disk.lock);

  if (wait_us > 0)
    sleep_us (wait_us);
  if (actuator)
    {
      pthread_mutex_lock (&disk.lock);
      disk.actuators_busy--;
      pthread_cond_signal (&disk.actuator_free);
      pthread_mutex_unlock (&disk.lock);
    }

  return failed ? -EIO : 0;
}

static void
io_end (int      is_write,
        uint64_t done)
{
  pthread_mutex_lock (&disk.lock);
  disk.inflight--;
  if (is_write)
    disk.write_bytes += done;
  else
    disk.read_bytes += done;
  pthread_mutex_unlock (&disk.lock);
}

static int
ctl_read (char   *buf,
          size_t  size,
          off_t   offset)
{
  char text[1024];
  int len;

  pthread_mutex_lock (&disk.lock);
  len = snprintf (text, sizeof text,
                  "size %" PRIu64 "\n"
                  "reads %" PRIu64 "\n"
                  "writes %" PRIu64 "\n"
                  "read_bytes %" PRIu64 "\n"
                  "write_bytes %" PRIu64 "\n"
                  "read_errors %" PRIu64 "\n"
                  "write_errors %" PRIu64 "\n"
                  "inflight %u\n"
                  "inflight_max %u\n"
                  "vanished %d\n"
                  "delay_us %" PRIu64 "\n"
                  "seek %" PRIu64 " %" PRIu64 "\n"
                  "seek_sqrt %" PRIu64 " %" PRIu64 "\n"
                  "discards %" PRIu64 "\n"
                  "discard_bytes %" PRIu64 "\n",
                  disk.size_bytes, disk.reads, disk.writes, disk.read_bytes,
                  disk.write_bytes, disk.read_fail, disk.write_fail,
                  disk.inflight, disk.inflight_max, disk.vanished,
                  disk.delay_us, disk.seek_base_us, disk.seek_us_per_gib,
                  disk.seek_sqrt_base_us, disk.seek_sqrt_full_us,
                  disk.discards, disk.discard_bytes);
  pthread_mutex_unlock (&disk.lock);

  if (offset >= len)
    return 0;
  if ((size_t) (len - offset) < size)
    size = (size_t) (len - offset);
  memcpy (buf, text + offset, size);
  return (int) size;
}

/* One command line; 0 or -EINVAL. */
static int
ctl_command (char *line)
{
  char word[32];
  uint64_t a = 0, b = 0, c = 0;
  int n;

  n = sscanf (line, "%31s %" SCNu64 " %" SCNu64 " %" SCNu64, word, &a, &b, &c);
  if (n < 1)
    return 0;  /* blank line */

  pthread_mutex_lock (&disk.lock);
  if (strcmp (word, "discard") == 0)
    {
      char how[8];

      if (sscanf (line, "%*s %7s", how) != 1)
        goto bad;
      if (strcmp (how, "drop") == 0)
        disk.discard_mode = DISCARD_DROP;
      else if (strcmp (how, "zero") == 0)
        disk.discard_mode = DISCARD_ZERO;
      else if (strcmp (how, "ones") == 0)
        disk.discard_mode = DISCARD_ONES;
      else
        goto bad;
    }
  else if ((strcmp (word, "read-error") == 0 || strcmp (word, "write-error") == 0) && n == 3)
    {
      int is_write = word[0] == 'w';
      Range *ranges = is_write ? disk.write_errors : disk.read_errors;
      unsigned *count = is_write ? &disk.n_write_errors : &disk.n_read_errors;

      if (*count == MAX_RANGES || b == 0)
        goto bad;
      ranges[*count].start = a;
      ranges[*count].end = a + b;
      (*count)++;
    }
  else if (strcmp (word, "slow-read") == 0)
    {
      uint64_t us = 0;

      if (sscanf (line, "%*s %" SCNu64 " %" SCNu64 " %" SCNu64, &a, &b, &us) != 3 ||
          b == 0 || disk.n_slow_reads == MAX_RANGES)
        goto bad;
      disk.slow_reads[disk.n_slow_reads].start = a;
      disk.slow_reads[disk.n_slow_reads].end = a + b;
      disk.slow_read_us[disk.n_slow_reads] = us;
      disk.n_slow_reads++;
    }
  else if (strcmp (word, "slow-moment") == 0)
    {
      uint64_t us = 0, ms = 0, max = 0;
      int got = sscanf (line, "%*s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
                        &a, &b, &us, &ms, &max);

      if ((got != 4 && got != 5) || b == 0 || ms == 0)
        goto bad;
      disk.moment_max_bytes = got == 5 ? max : 0;
      disk.moment.start = a;
      disk.moment.end = a + b;
      disk.moment_us = us;
      disk.moment_s = (double) ms / 1e3;
      disk.moment_t0_s = 0;
    }
  else if (strcmp (word, "delay") == 0 && n == 2)
    disk.delay_us = a;
  else if (strcmp (word, "seek") == 0 && n == 3)
    {
      disk.seek_base_us = a;
      disk.seek_us_per_gib = b;
    }
  else if (strcmp (word, "seek-sqrt") == 0 && (n == 3 || n == 4))
    {
      disk.seek_sqrt_base_us = a;
      disk.seek_sqrt_full_us = b;
      disk.seek_sqrt_max_bytes = n == 4 ? c : 0;
    }
  else if (strcmp (word, "actuators") == 0 && n == 3)
    {
      disk.actuators = (unsigned) a;
      disk.actuator_us = b;
      pthread_cond_broadcast (&disk.actuator_free);
    }
  else if (strcmp (word, "write-cache") == 0 && n == 4)
    {
      if (a != 0 && (b == 0 || c == 0 || c >= b))
        goto bad;
      disk.cache_bytes = a;
      disk.cache_fast_bps = (double) b;
      disk.cache_media_bps = (double) c;
      disk.cache_fill = 0;
      disk.cache_last_s = now_s ();
      disk.cache_link_free_s = 0;
    }
  else if (strcmp (word, "read-cache") == 0 && n == 4)
    {
      if (rcache_set (a, b, c) < 0)
        goto bad;
    }
  else if (strcmp (word, "write-stall") == 0 && n == 3)
    {
      if (a != 0 && b >= a)
        goto bad;
      disk.stall_period_us = a;
      disk.stall_length_us = b;
      disk.stall_t0_s = now_s ();
    }
  else if (strcmp (word, "vanish") == 0 && n == 1)
    disk.vanished = 1;
  else if (strcmp (word, "clear") == 0 && n == 1)
    {
      disk.n_read_errors = 0;
      disk.n_write_errors = 0;
      disk.n_slow_reads = 0;
      disk.moment.end = 0;
      disk.delay_us = 0;
      disk.seek_base_us = 0;
      disk.seek_us_per_gib = 0;
      disk.seek_sqrt_base_us = 0;
      disk.seek_sqrt_full_us = 0;
      disk.seek_sqrt_max_bytes = 0;
      disk.actuators = 0;
      disk.actuator_us = 0;
      disk.cache_bytes = 0;
      disk.stall_period_us = 0;
      rcache_set (0, 0, 0);
      pthread_cond_broadcast (&disk.actuator_free);
      disk.vanished = 0;
      disk.discard_mode = DISCARD_DROP;
    }
  else if (strcmp (word, "reset-counters") == 0 && n == 1)
    {
      disk.reads = disk.writes = 0;
      disk.read_bytes = disk.write_bytes = 0;
      disk.discards = disk.discard_bytes = 0;
      disk.read_fail = disk.write_fail = 0;
      disk.inflight_max = disk.inflight;
    }
  else
    goto bad;
  pthread_mutex_unlock (&disk.lock);
  return 0;

bad:
  pthread_mutex_unlock (&disk.lock);
  fprintf (stderr, "faultdisk: bad control line: %s\n", line);
  return -EINVAL;
}

static int
ctl_write (const char *buf,
           size_t      size)
{
  char *text = strndup (buf, size);
  char *save = NULL;
  int ret = (int) size;

  if (text == NULL)
    return -ENOMEM;
  for (char *line = strtok_r (text, "\n", &save); line != NULL;
       line = strtok_r (NULL, "\n", &save))
    if (ctl_command (line) < 0)
      {
        ret = -EINVAL;
        break;
      }
  free (text);
  return ret;
}

static int
fd_read (const char            *path,
         char                  *buf,
         size_t                 size,
         off_t                  offset,
         struct fuse_file_info *fi)
{
  uint64_t off = (uint64_t) offset;
  int ret;

  if (strcmp (path, CTL_PATH) == 0)
    return ctl_read (buf, size, offset);
  if (strcmp (path, DISK_PATH) != 0)
    return -ENOENT;

  if (off >= disk.size_bytes)
    return 0;
  if (size > disk.size_bytes - off)
    size = (size_t) (disk.size_bytes - off);

  ret = io_begin (0, off, size);
  if (ret == 0)
    {
      if (disk.memory != NULL)
        {
          memcpy (buf, disk.memory + off, size);
          ret = (int) size;
        }
      else
        {
          ssize_t n = pread (disk.backing_fd, buf, size, offset);
          ret = n < 0 ? -errno : (int) n;
        }
    }
  io_end (0, ret > 0 ? (uint64_t) ret : 0);
  return ret;
}

static int
fd_write (const char            *path,
          const char            *buf,
          size_t                 size,
          off_t                  offset,
          struct fuse_file_info *fi)
{
  uint64_t off = (uint64_t) offset;
  int ret;

  if (strcmp (path, CTL_PATH) == 0)
    return ctl_write (buf, size);
  if (strcmp (path, DISK_PATH) != 0)
    return -ENOENT;

  if (off >= disk.size_bytes || size > disk.size_bytes - off)
    return -ENOSPC;

  ret = io_begin (1, off, size);
  if (ret == 0)
    {
      if (disk.memory != NULL)
        {
          memcpy (disk.memory + off, buf, size);
          ret = (int) size;
        }
      else
        {
          ssize_t n = pwrite (disk.backing_fd, buf, size, offset);
          ret = n < 0 ? -errno : (int) n;
        }
    }
  io_end (1, ret > 0 ? (uint64_t) ret : 0);
  return ret;
}

static int
fd_fsync (const char            *path,
          int                    datasync,
          struct fuse_file_info *fi)
{
  if (disk.vanished && strcmp (path, DISK_PATH) == 0)
    return -EIO;
  if (disk.backing_fd >= 0 && fdatasync (disk.backing_fd) < 0)
    return -errno;
  /* A FLUSH returns once the write cache is on the media. */
  if (strcmp (path, DISK_PATH) == 0)
    {
      double wait_s = 0;

      pthread_mutex_lock (&disk.lock);
      if (disk.cache_bytes != 0)
        {
          double now = now_s ();
          double fill = disk.cache_fill;

          /* The fill is as of cache_last_s, which a write in flight may
           * have put ahead of now. */
          if (now > disk.cache_last_s)
            fill -= (now - disk.cache_last_s) * disk.cache_media_bps;
          else
            wait_s = disk.cache_last_s - now;
          if (fill > 0)
            wait_s += fill / disk.cache_media_bps;
        }
      pthread_mutex_unlock (&disk.lock);
      if (wait_s > 0)
        usleep ((useconds_t) (wait_s * 1e6));
    }
  return 0;
}

/* Fills [@off, @off + @len) of the disk with @byte. */
static int
fill_range (uint64_t off,
            uint64_t len,
            uint8_t  byte)
{
  uint8_t chunk[65536];

  if (disk.memory != NULL)
    {
      memset (disk.memory + off, byte, len);
      return 0;
    }
  memset (chunk, byte, sizeof chunk);
  for (uint64_t done = 0; done < len;)
    {
      size_t n = (size_t) (len - done < sizeof chunk ? len - done : sizeof chunk);
      ssize_t w = pwrite (disk.backing_fd, chunk, n, (off_t) (off + done));

      if (w <= 0)
        return w < 0 ? -errno : -EIO;
      done += (uint64_t) w;
    }
  return 0;
}

/* The loop device turns a discard into a punched hole and a write-zeroes
 * into a zeroed range; preallocation is a no-op on a disk of fixed size. */
static int
fd_fallocate (const char            *path,
              int                    mode,
              off_t                  offset,
              off_t                  length,
              struct fuse_file_info *fi)
{
  uint64_t off = (uint64_t) offset;
  uint64_t len = (uint64_t) length;
  int how;

  if (strcmp (path, DISK_PATH) != 0)
    return -EOPNOTSUPP;
  if (!(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) || off >= disk.size_bytes)
    return 0;
  if (len > disk.size_bytes - off)
    len = disk.size_bytes - off;

  pthread_mutex_lock (&disk.lock);
  if (disk.vanished)
    {
      pthread_mutex_unlock (&disk.lock);
      return -EIO;
    }
  disk.discards++;
  disk.discard_bytes += len;
  how = (mode & FALLOC_FL_ZERO_RANGE) ? DISCARD_ZERO : disk.discard_mode;
  pthread_mutex_unlock (&disk.lock);

  if (how == DISCARD_DROP)
    return 0;
  return fill_range (off, len, how == DISCARD_ZERO ? 0 : 0xff);
}

static const struct fuse_operations ops = {
  .init = fd_init,
  .getattr = fd_getattr,
  .readdir = fd_readdir,
  .open = fd_open,
  .truncate = fd_truncate,
  .read = fd_read,
  .write = fd_write,
  .fsync = fd_fsync,
  .fallocate = fd_fallocate,
};

static uint64_t
parse_size (const char *text)
{
  char *end = NULL;
  uint64_t v;

  errno = 0;
  v = strtoull (text, &end, 10);
  if (errno != 0 || end == text)
    goto bad;
  switch (*end)
    {
    case 'K': v <<= 10; end++; break;
    case 'M': v <<= 20; end++; break;
    case 'G': v <<= 30; end++; break;
    default: break;
    }
  if (*end != '\0')
    goto bad;
  return v;

bad:
  fprintf (stderr, "faultdisk: bad size: %s\n", text);
  exit (2);
}

static void
usage (void)
{
  fprintf (stderr,
           "usage: faultdisk [--size BYTES] [--seed N] [--backing FILE] MOUNTPOINT\n"
           "Serves MOUNTPOINT/disk (attach it with losetup --direct-io=on)\n"
           "and MOUNTPOINT/ctl (write fault commands, read counters).\n");
  exit (2);
}

int
main (int    argc,
      char **argv)
{
  const char *mountpoint = NULL;
  const char *backing = NULL;
  uint64_t size = 64ull << 20;
  uint64_t seed = 1;
  char *fuse_argv[] = {
    argv[0], "-o", "fsname=faultdisk,subtype=faultdisk", NULL,
  };
  struct fuse_args args = FUSE_ARGS_INIT (3, fuse_argv);
  struct fuse_loop_config *config;
  struct fuse *fuse;
  int ret;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--size") == 0 && i + 1 < argc)
        size = parse_size (argv[++i]);
      else if (strcmp (argv[i], "--seed") == 0 && i + 1 < argc)
        seed = parse_size (argv[++i]);
      else if (strcmp (argv[i], "--backing") == 0 && i + 1 < argc)
        backing = argv[++i];
      else if (strcmp (argv[i], "--help") == 0 || argv[i][0] == '-' || mountpoint != NULL)
        usage ();
      else
        mountpoint = argv[i];
    }
  if (mountpoint == NULL)
    usage ();

  if (backing != NULL)
    {
      struct stat st;

      disk.backing_fd = open (backing, O_RDWR | O_CLOEXEC);
      if (disk.backing_fd < 0 || fstat (disk.backing_fd, &st) < 0)
        {
          fprintf (stderr, "faultdisk: %s: %s\n", backing, strerror (errno));
          return 1;
        }
      disk.size_bytes = (uint64_t) st.st_size;
    }
  else
    {
      if (size == 0 || size % 4096 != 0)
        {
          fprintf (stderr, "faultdisk: the size must be a multiple of 4096\n");
          return 2;
        }
      disk.size_bytes = size;
      disk.memory = malloc (size);
      if (disk.memory == NULL)
        {
          fprintf (stderr, "faultdisk: out of memory for %" PRIu64 " bytes\n", size);
          return 1;
        }
      fill_random (disk.memory, size, seed);
    }

  fuse = fuse_new (&args, &ops, sizeof ops, NULL);
  if (fuse == NULL)
    return 1;
  if (fuse_mount (fuse, mountpoint) != 0)
    {
      fuse_destroy (fuse);
      return 1;
    }
  if (fuse_set_signal_handlers (fuse_get_session (fuse)) != 0)
    {
      fuse_unmount (fuse);
      fuse_destroy (fuse);
      return 1;
    }

  /* Enough threads that 32 queued I/Os, each sleeping for the delay,
   * overlap instead of waiting for each other. */
  config = fuse_loop_cfg_create ();
  fuse_loop_cfg_set_max_threads (config, 96);
  fuse_loop_cfg_set_idle_threads (config, 48);
  ret = fuse_loop_mt (fuse, config);
  fuse_loop_cfg_destroy (config);

  fuse_remove_signal_handlers (fuse_get_session (fuse));
  fuse_unmount (fuse);
  fuse_destroy (fuse);
  fuse_opt_free_args (&args);
  free (disk.memory);
  if (disk.backing_fd >= 0)
    close (disk.backing_fd);

  return ret == 0 ? 0 : 1;
}
