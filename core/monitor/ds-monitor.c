/* ds-monitor.c: /proc/diskstats and /proc/PID/io, sampled
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-monitor.h"

/* /proc/diskstats counts 512-byte sectors whatever the device's sector. */
#define DISKSTATS_SECTOR 512

typedef struct {
  char     name[32];
  uint64_t reads, read_sectors, read_ms;
  uint64_t writes, write_sectors, write_ms;
  uint64_t in_flight, io_ms, weighted_ms;
} DiskCounters;

typedef struct {
  uint64_t read_bytes;
  uint64_t write_bytes;
  char     comm[64];
  gboolean seen;              /* in the latest scan */
} ProcCounters;

struct _DsMonitor {
  char       *only;           /* the named device, or NULL */
  GArray     *disks;          /* DiskCounters of the previous sample */
  GHashTable *procs;          /* pid -> ProcCounters */
  uint64_t    last_ns;
};

static void
close_dir (DIR **dir)
{
  if (*dir != NULL)
    closedir (*dir);
}

/* Whole disks are /sys/block entries; partitions are not. */
static gboolean
is_whole_disk (const char *name)
{
  g_autofree char *path = g_build_filename ("/sys/block", name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static int
read_diskstats (GArray  *out,
                GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;
  char *save = NULL;

  if (!g_file_get_contents ("/proc/diskstats", &text, NULL, &local))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("/proc/diskstats cannot be read: %s"), local->message);
      return -EIO;
    }

  g_array_set_size (out, 0);
  for (char *line = strtok_r (text, "\n", &save); line != NULL; line = strtok_r (NULL, "\n", &save))
    {
      DiskCounters c = { 0 };
      unsigned major_, minor_;
      int n = sscanf (line, " %u %u %31s %" SCNu64 " %*s %" SCNu64 " %" SCNu64 " %" SCNu64
                      " %*s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
                      &major_, &minor_, c.name, &c.reads, &c.read_sectors, &c.read_ms,
                      &c.writes, &c.write_sectors, &c.write_ms, &c.in_flight, &c.io_ms,
                      &c.weighted_ms);

      if (n == 12)
        g_array_append_val (out, c);
    }

  return 0;
}

DsMonitor *
ds_monitor_new (const char  *device,
                GError     **error)
{
  g_autoptr (DsMonitor) monitor = g_new0 (DsMonitor, 1);

  monitor->disks = g_array_new (FALSE, TRUE, sizeof (DiskCounters));
  monitor->procs = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);

  if (read_diskstats (monitor->disks, error) < 0)
    return NULL;

  if (device != NULL)
    {
      const char *name = g_str_has_prefix (device, "/dev/") ? device + strlen ("/dev/") : device;
      gboolean found = FALSE;

      for (guint i = 0; i < monitor->disks->len && !found; i++)
        found = strcmp (g_array_index (monitor->disks, DiskCounters, i).name, name) == 0;
      if (!found)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                       _("%s is not a block device the kernel counts I/O for "
                       "(/proc/diskstats does not list it)"), device);
          return NULL;
        }
      monitor->only = g_strdup (name);
    }
  /* The first ds_monitor_sample() primes from these. */
  g_array_set_size (monitor->disks, 0);

  return g_steal_pointer (&monitor);
}

void
ds_monitor_free (DsMonitor *monitor)
{
  if (monitor == NULL)
    return;

  g_free (monitor->only);
  g_clear_pointer (&monitor->disks, g_array_unref);
  g_clear_pointer (&monitor->procs, g_hash_table_unref);
  g_free (monitor);
}

void
ds_monitor_sample_free (DsMonitorSample *sample)
{
  if (sample == NULL)
    return;

  g_clear_pointer (&sample->devices, g_array_unref);
  g_clear_pointer (&sample->processes, g_array_unref);
  g_free (sample);
}

static gboolean
watched (DsMonitor  *monitor,
         const char *name)
{
  if (monitor->only != NULL)
    return strcmp (monitor->only, name) == 0;
  /* Every disk, not partitions nor unused loop or ram devices. */
  if (!is_whole_disk (name))
    return FALSE;
  if (g_str_has_prefix (name, "loop") || g_str_has_prefix (name, "ram") ||
      g_str_has_prefix (name, "zram"))
    {
      g_autofree char *path = g_strdup_printf ("/sys/block/%s/size", name);
      g_autofree char *size = NULL;

      return g_file_get_contents (path, &size, NULL, NULL) && g_ascii_strtoull (size, NULL, 10) > 0;
    }

  return TRUE;
}

static const DiskCounters *
find_disk (GArray     *disks,
           const char *name)
{
  for (guint i = 0; i < disks->len; i++)
    if (strcmp (g_array_index (disks, DiskCounters, i).name, name) == 0)
      return &g_array_index (disks, DiskCounters, i);

  return NULL;
}

static inline uint64_t
delta (uint64_t now,
       uint64_t before)
{
  return now >= before ? now - before : 0;   /* a counter reset: no rate */
}

static void
device_rates (DsMonitorDevice    *d,
              const DiskCounters *now,
              const DiskCounters *before,
              double              seconds)
{
  uint64_t reads, writes;

  g_strlcpy (d->name, now->name, sizeof d->name);
  d->in_flight = (unsigned) now->in_flight;
  if (before == NULL || seconds <= 0)
    return;

  reads = delta (now->reads, before->reads);
  writes = delta (now->writes, before->writes);
  d->read_bytes_per_s = (double) delta (now->read_sectors, before->read_sectors) *
                        DISKSTATS_SECTOR / seconds;
  d->write_bytes_per_s = (double) delta (now->write_sectors, before->write_sectors) *
                         DISKSTATS_SECTOR / seconds;
  d->read_iops = (double) reads / seconds;
  d->write_iops = (double) writes / seconds;
  /* io_ticks and the weighted time are in ms: as iostat's %util, aqu-sz. */
  d->util_percent = MIN (100.0, (double) delta (now->io_ms, before->io_ms) / (seconds * 10.0));
  d->queue_depth = (double) delta (now->weighted_ms, before->weighted_ms) / (seconds * 1000.0);
  d->read_await_ms = reads ? (double) delta (now->read_ms, before->read_ms) / (double) reads : 0;
  d->write_await_ms = writes ? (double) delta (now->write_ms, before->write_ms) / (double) writes : 0;
}

/* dev_t of every watched disk and its partitions -> the disk's name. */
static GHashTable *
device_numbers (DsMonitorSample *sample)
{
  GHashTable *map = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  for (guint i = 0; i < sample->devices->len; i++)
    {
      const char *name = g_array_index (sample->devices, DsMonitorDevice, i).name;
      g_autofree char *dir_path = g_strdup_printf ("/sys/class/block/%s", name);
      g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
      const char *entry;
      g_autoptr (GPtrArray) nodes = g_ptr_array_new_with_free_func (g_free);

      g_ptr_array_add (nodes, g_strdup_printf ("%s/dev", dir_path));
      while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
        if (g_str_has_prefix (entry, name))
          g_ptr_array_add (nodes, g_strdup_printf ("%s/%s/dev", dir_path, entry));

      for (guint k = 0; k < nodes->len; k++)
        {
          g_autofree char *text = NULL;
          unsigned ma, mi;

          if (g_file_get_contents (nodes->pdata[k], &text, NULL, NULL) &&
              sscanf (text, "%u:%u", &ma, &mi) == 2)
            {
              gint64 *key = g_new (gint64, 1);

              *key = (gint64) makedev (ma, mi);
              g_hash_table_replace (map, key, g_strdup (name));
            }
        }
    }

  return map;
}

/* The watched disks @pid has files open on, space-separated. */
static void
process_devices (int          pid,
                 GHashTable  *numbers,
                 char        *out,
                 gsize        out_size)
{
  g_autofree char *fd_path = g_strdup_printf ("/proc/%d/fd", pid);
  __attribute__ ((cleanup (close_dir))) DIR *dir = opendir (fd_path);
  struct dirent *e;

  out[0] = '\0';
  while (dir != NULL && (e = readdir (dir)) != NULL)
    {
      g_autofree char *link = NULL;
      const char *name;
      struct stat st;
      gint64 key;

      if (e->d_name[0] == '.')
        continue;
      link = g_strdup_printf ("%s/%s", fd_path, e->d_name);
      if (stat (link, &st) != 0)
        continue;
      key = (gint64) (S_ISBLK (st.st_mode) ? st.st_rdev : st.st_dev);
      name = g_hash_table_lookup (numbers, &key);
      if (name == NULL)
        continue;
      /* Each disk once. */
      {
        g_autofree char *padded = g_strdup_printf (" %s ", out);
        g_autofree char *needle = g_strdup_printf (" %s ", name);

        if (strstr (padded, needle) != NULL)
          continue;
      }
      if (out[0] != '\0')
        g_strlcat (out, " ", out_size);
      g_strlcat (out, name, out_size);
    }
}

static gboolean
read_proc_io (int       pid,
              uint64_t *ret_read,
              uint64_t *ret_write,
              int      *ret_errno)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/io", pid);
  char buf[512];
  ssize_t n;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  const char *p;

  if (fd < 0)
    {
      *ret_errno = errno;
      return FALSE;
    }
  n = read (fd, buf, sizeof buf - 1);
  *ret_errno = n < 0 ? errno : 0;
  close (fd);
  if (n <= 0)
    return FALSE;
  buf[n] = '\0';

  p = strstr (buf, "\nread_bytes: ");
  *ret_read = p ? g_ascii_strtoull (p + strlen ("\nread_bytes: "), NULL, 10) : 0;
  p = strstr (buf, "\nwrite_bytes: ");
  *ret_write = p ? g_ascii_strtoull (p + strlen ("\nwrite_bytes: "), NULL, 10) : 0;

  return TRUE;
}

static void
read_comm (int   pid,
           char *out,
           gsize out_size)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", pid);
  g_autofree char *text = NULL;

  if (g_file_get_contents (path, &text, NULL, NULL))
    g_strlcpy (out, g_strstrip (text), out_size);
  else
    g_strlcpy (out, "?", out_size);
}

static gint
busiest_first (gconstpointer a,
               gconstpointer b)
{
  const DsMonitorProcess *pa = a;
  const DsMonitorProcess *pb = b;
  double ta = pa->read_bytes_per_s + pa->write_bytes_per_s;
  double tb = pb->read_bytes_per_s + pb->write_bytes_per_s;

  return ta < tb ? 1 : ta > tb ? -1 : pa->pid - pb->pid;
}

static gboolean
forget_unseen (gpointer key,
               gpointer value,
               gpointer user_data)
{
  ProcCounters *c = value;
  gboolean gone = !c->seen;

  c->seen = FALSE;
  return gone;
}

static void
sample_processes (DsMonitor       *monitor,
                  DsMonitorSample *sample,
                  double           seconds)
{
  __attribute__ ((cleanup (close_dir))) DIR *proc = opendir ("/proc");
  g_autoptr (GHashTable) numbers = NULL;
  struct dirent *e;

  while (proc != NULL && (e = readdir (proc)) != NULL)
    {
      char *end = NULL;
      long pid = strtol (e->d_name, &end, 10);
      ProcCounters *before;
      DsMonitorProcess p = { .pid = (int) pid };
      uint64_t rd = 0, wr = 0;
      int err = 0;
      char comm[64];
      gboolean fresh;

      if (end == e->d_name || *end != '\0' || pid <= 0)
        continue;
      if (!read_proc_io ((int) pid, &rd, &wr, &err))
        {
          if (err == EACCES || err == EPERM)
            sample->unreadable_processes++;
          continue;
        }
      read_comm ((int) pid, comm, sizeof comm);

      before = g_hash_table_lookup (monitor->procs, GINT_TO_POINTER (pid));
      /* A reused pid (another program) starts from its own counters. */
      fresh = before == NULL || strcmp (before->comm, comm) != 0;
      if (before == NULL)
        {
          before = g_new0 (ProcCounters, 1);
          g_hash_table_insert (monitor->procs, GINT_TO_POINTER (pid), before);
        }
      /* A process the last sample did not see was born since: everything
       * it has read or written, it did in this interval.  (The first
       * sample, with no interval, only learns the counters.) */
      if (fresh)
        before->read_bytes = before->write_bytes = 0;
      if (seconds > 0 && (rd > before->read_bytes || wr > before->write_bytes))
        {
          p.read_bytes_per_s = (double) delta (rd, before->read_bytes) / seconds;
          p.write_bytes_per_s = (double) delta (wr, before->write_bytes) / seconds;
          g_strlcpy (p.comm, comm, sizeof p.comm);
          if (numbers == NULL)
            numbers = device_numbers (sample);
          process_devices (p.pid, numbers, p.devices, sizeof p.devices);
          if (monitor->only == NULL || p.devices[0] != '\0')
            g_array_append_val (sample->processes, p);
        }
      before->read_bytes = rd;
      before->write_bytes = wr;
      g_strlcpy (before->comm, comm, sizeof before->comm);
      before->seen = TRUE;
    }

  g_hash_table_foreach_remove (monitor->procs, forget_unseen, NULL);
  g_array_sort (sample->processes, busiest_first);
}

DsMonitorSample *
ds_monitor_sample (DsMonitor  *monitor,
                   GError    **error)
{
  g_autoptr (DsMonitorSample) sample = g_new0 (DsMonitorSample, 1);
  g_autoptr (GArray) now = g_array_new (FALSE, TRUE, sizeof (DiskCounters));
  double seconds;

  sample->time_ns = ds_clock_ns ();
  sample->devices = g_array_new (FALSE, TRUE, sizeof (DsMonitorDevice));
  sample->processes = g_array_new (FALSE, TRUE, sizeof (DsMonitorProcess));
  if (read_diskstats (now, error) < 0)
    return NULL;

  seconds = monitor->last_ns != 0 ? (double) (sample->time_ns - monitor->last_ns) / 1e9 : 0;
  sample->interval_s = seconds;

  for (guint i = 0; i < now->len; i++)
    {
      const DiskCounters *c = &g_array_index (now, DiskCounters, i);
      DsMonitorDevice d = { 0 };

      if (!watched (monitor, c->name))
        continue;
      device_rates (&d, c, find_disk (monitor->disks, c->name), seconds);
      g_array_append_val (sample->devices, d);
    }
  if (monitor->only != NULL && sample->devices->len == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_VANISHED,
                   _("/dev/%s is gone: /proc/diskstats no longer lists it"), monitor->only);
      return NULL;
    }

  sample_processes (monitor, sample, seconds);

  g_array_unref (monitor->disks);
  monitor->disks = g_steal_pointer (&now);
  monitor->last_ns = sample->time_ns;

  return g_steal_pointer (&sample);
}

int
ds_monitor_run (DsMonitor      *monitor,
                uint64_t        interval_ns,
                guint           count,
                const gint     *cancel,
                DsMonitorFunc   func,
                gpointer        user_data,
                GError        **error)
{
  g_autoptr (DsMonitorSample) prime = ds_monitor_sample (monitor, error);
  uint64_t next;

  if (prime == NULL)
    return -EIO;
  next = prime->time_ns;

  for (guint delivered = 0; count == 0 || delivered < count; delivered++)
    {
      g_autoptr (DsMonitorSample) sample = NULL;

      /* Absolute deadlines: the interval does not drift with the work. */
      next += interval_ns;
      for (;;)
        {
          uint64_t now = ds_clock_ns ();

          if (cancel != NULL && g_atomic_int_get (cancel))
            return 0;
          if (now >= next)
            break;
          g_usleep (MIN (next - now, 50 * DS_NS_PER_MSEC) / 1000);
        }
      sample = ds_monitor_sample (monitor, error);
      if (sample == NULL)
        return -EIO;
      func (sample, user_data);
    }

  return 0;
}

JsonNode *
ds_monitor_sample_to_json (const DsMonitorSample *sample)
{
  JsonObject *o = json_object_new ();
  JsonNode *node = ds_json_node_take_object (o);
  JsonArray *devices = json_array_new ();
  JsonArray *procs = json_array_new ();

  json_object_set_double_member (o, "interval_s", sample->interval_s);
  for (guint i = 0; i < sample->devices->len; i++)
    {
      const DsMonitorDevice *d = &g_array_index (sample->devices, DsMonitorDevice, i);
      JsonObject *j = json_object_new ();

      json_object_set_string_member (j, "name", d->name);
      json_object_set_double_member (j, "read_bytes_per_s", d->read_bytes_per_s);
      json_object_set_double_member (j, "write_bytes_per_s", d->write_bytes_per_s);
      json_object_set_double_member (j, "read_iops", d->read_iops);
      json_object_set_double_member (j, "write_iops", d->write_iops);
      json_object_set_double_member (j, "util_percent", d->util_percent);
      json_object_set_double_member (j, "queue_depth", d->queue_depth);
      json_object_set_int_member (j, "in_flight", d->in_flight);
      json_object_set_double_member (j, "read_await_ms", d->read_await_ms);
      json_object_set_double_member (j, "write_await_ms", d->write_await_ms);
      json_array_add_object_element (devices, j);
    }
  json_object_set_array_member (o, "devices", devices);

  for (guint i = 0; i < sample->processes->len; i++)
    {
      const DsMonitorProcess *p = &g_array_index (sample->processes, DsMonitorProcess, i);
      JsonObject *j = json_object_new ();
      JsonArray *devs = json_array_new ();
      g_auto (GStrv) names = g_strsplit (p->devices, " ", -1);

      json_object_set_int_member (j, "pid", p->pid);
      json_object_set_string_member (j, "comm", p->comm);
      json_object_set_double_member (j, "read_bytes_per_s", p->read_bytes_per_s);
      json_object_set_double_member (j, "write_bytes_per_s", p->write_bytes_per_s);
      for (guint k = 0; names[k] != NULL; k++)
        if (names[k][0] != '\0')
          json_array_add_string_element (devs, names[k]);
      json_object_set_array_member (j, "devices", devs);
      json_array_add_object_element (procs, j);
    }
  json_object_set_array_member (o, "processes", procs);
  json_object_set_int_member (o, "unreadable_processes", sample->unreadable_processes);

  return node;
}
