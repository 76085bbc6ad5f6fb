/* test-device-list.c: what the device drop-down lists, finds and starts on
 *
 * Unit suite: no root, no display; devices are made up here, as the
 * kernel would describe them.  Covers:
 *  - search: any word of the path, name, model, serial or size, in any
 *    case, all words needed ("loop11", "samsung 870", "2 GiB", "2.1gb");
 *  - snap packages' loop devices (backing file under /var/lib/snapd): left
 *    out, or listed last when asked for; empty devices left out;
 *  - the device a window starts on: the one used last if it is there, else
 *    the largest fixed disk (not a loop device, not removable), else the
 *    first device that is not a snap's, never one that cannot be opened
 *    (checked on this machine's own devices too).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "ds-device-item.h"
#include "ds-device-list.h"
#include "ds-test-util.h"

#define GB (UINT64_C (1000000000))
#define GiB (UINT64_C (1) << 30)

static DsDevice *
make_device (const char   *name,
             DsDeviceType  type,
             uint64_t      size_bytes,
             const char   *model,
             const char   *serial,
             const char   *backing_file,
             gboolean      removable)
{
  DsDevice *device = g_new0 (DsDevice, 1);

  device->name = g_strdup (name);
  device->path = g_strdup_printf ("/dev/%s", name);
  device->type = type;
  device->size_bytes = size_bytes;
  device->model = g_strdup (model);
  device->serial = g_strdup (serial);
  device->backing_file = g_strdup (backing_file);
  device->removable = removable;
  device->loop_direct_io = -1;
  device->mountpoints = g_new0 (char *, 1);
  device->holders = g_new0 (char *, 1);
  device->partitions = g_new0 (char *, 1);

  return device;
}

/* What a machine with a USB stick, two disks and snaps might list. */
static GPtrArray *
make_listing (void)
{
  GPtrArray *devices = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_device_free);

  g_ptr_array_add (devices, make_device ("loop0", DS_DEVICE_LOOP, 64 << 20, NULL, NULL,
                                         "/var/lib/snapd/snaps/core22_1380.snap", FALSE));
  g_ptr_array_add (devices, make_device ("loop1", DS_DEVICE_LOOP, 0, NULL, NULL, NULL, FALSE));
  g_ptr_array_add (devices, make_device ("loop10", DS_DEVICE_LOOP, 2 * GiB, NULL, NULL,
                                         "/var/tmp/disk.img", FALSE));
  g_ptr_array_add (devices, make_device ("loop11", DS_DEVICE_LOOP, 2 * GiB, NULL, NULL,
                                         "/var/tmp/other.img", FALSE));
  g_ptr_array_add (devices, make_device ("nvme0n1", DS_DEVICE_NVME, 1000 * GB,
                                         "Samsung SSD 980 PRO 1TB", "S5GXNF0R123456", NULL, FALSE));
  g_ptr_array_add (devices, make_device ("sda", DS_DEVICE_DISK, 500 * GB,
                                         "Samsung SSD 870 EVO 500GB", "S62ANJ0R654321", NULL, FALSE));
  g_ptr_array_add (devices, make_device ("sdb", DS_DEVICE_DISK, 4000 * GB,
                                         "SanDisk Extreme", "AA010203", NULL, TRUE));
  g_ptr_array_add (devices, make_device ("loop2", DS_DEVICE_LOOP, 100 << 20, NULL, NULL,
                                         "/var/lib/snapd/snaps/firefox_4173.snap", FALSE));

  return devices;
}

static GListModel *
make_model (gboolean show_snaps)
{
  g_autoptr(GPtrArray) devices = make_listing ();
  g_autoptr(GPtrArray) items = ds_device_list_arrange (devices, show_snaps);
  GListStore *store = g_list_store_new (DS_TYPE_DEVICE_ITEM);

  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}

static const char *
path_at (GListModel *model,
         guint       position)
{
  g_autoptr(DsDeviceItem) item = g_list_model_get_item (model, position);

  /* The item stays in the model: its path outlives this reference. */
  return ds_device_item_get_path (item);
}

/* The paths of the items @search matches, space-separated. */
static char *
matching (GListModel *model,
          const char *search)
{
  g_autoptr(GString) paths = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(DsDeviceItem) item = g_list_model_get_item (model, i);

      if (ds_device_item_matches (item, search))
        g_string_append_printf (paths, "%s%s", paths->len ? " " : "", ds_device_item_get_path (item));
    }

  return g_string_free (g_steal_pointer (&paths), FALSE);
}

START_TEST (test_search)
{
  g_autoptr(GListModel) model = make_model (FALSE);
  static const struct { const char *search; const char *paths; } cases[] = {
    { "loop11", "/dev/loop11" },
    { "/dev/loop11", "/dev/loop11" },
    { "LOOP1", "/dev/loop10 /dev/loop11" },
    { "sda", "/dev/sda" },
    { "samsung", "/dev/nvme0n1 /dev/sda" },
    { "samsung 870", "/dev/sda" },
    { "870 samsung", "/dev/sda" },
    { "samsung 990", "" },
    { "s62anj", "/dev/sda" },
    { "S5GXNF0R123456", "/dev/nvme0n1" },
    { "500 GB", "/dev/sda" },
    { "500gb", "/dev/sda" },
    { "2 GiB", "/dev/loop10 /dev/loop11" },
    { "2gib", "/dev/loop10 /dev/loop11" },
    { "2.1 GB", "/dev/loop10 /dev/loop11" },
    { "2,1 GB", "/dev/loop10 /dev/loop11" },
    { "4.0 TB", "/dev/sdb" },
    { "4 TB", "/dev/sdb" },
    { "1 tb", "/dev/nvme0n1" },
    { "12 GiB", "" },
    { "0 TB", "" },
    { "nvme", "/dev/nvme0n1" },
    { "  sda  ", "/dev/sda" },
    { "", "/dev/loop10 /dev/loop11 /dev/nvme0n1 /dev/sda /dev/sdb" },
    { "firefox", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *paths = matching (model, cases[i].search);

      ck_assert_msg (g_str_equal (paths, cases[i].paths), "“%s” found “%s”, not “%s”",
                     cases[i].search, paths, cases[i].paths);
    }
}
END_TEST

START_TEST (test_snaps)
{
  g_autoptr(GListModel) hidden = make_model (FALSE);
  g_autoptr(GListModel) shown = make_model (TRUE);
  guint n_shown = g_list_model_get_n_items (shown);
  g_autoptr(DsDevice) snap = make_device ("loop3", DS_DEVICE_LOOP, 1 << 20, NULL, NULL,
                                          "/var/lib/snapd/snaps/gtk_1.snap", FALSE);
  g_autoptr(DsDevice) image = make_device ("loop4", DS_DEVICE_LOOP, 1 << 20, NULL, NULL,
                                           "/var/lib/images/snapd.img", FALSE);

  ck_assert (ds_device_is_snap (snap));
  ck_assert (!ds_device_is_snap (image));

  /* Hidden: the five real devices; the empty loop1 never shows. */
  ck_assert_uint_eq (g_list_model_get_n_items (hidden), 5);
  for (guint i = 0; i < 5; i++)
    ck_assert (!g_str_has_prefix (path_at (hidden, i), "/dev/loop0") &&
               !g_str_equal (path_at (hidden, i), "/dev/loop2"));

  /* Shown: the same five in the same order, then the snaps. */
  ck_assert_uint_eq (n_shown, 7);
  for (guint i = 0; i < 5; i++)
    ck_assert_str_eq (path_at (shown, i), path_at (hidden, i));
  ck_assert_str_eq (path_at (shown, 5), "/dev/loop0");
  ck_assert_str_eq (path_at (shown, 6), "/dev/loop2");
}
END_TEST

static gboolean
not_nvme (const DsDevice *device)
{
  return !g_str_has_prefix (device->name, "nvme");
}

static gboolean
not_snap (const DsDevice *device)
{
  return !ds_device_is_snap (device);
}

static gboolean
nothing (const DsDevice *device)
{
  return FALSE;
}

START_TEST (test_start_device)
{
  g_autoptr(GListModel) model = make_model (TRUE);
  g_autoptr(GListStore) loops = g_list_store_new (DS_TYPE_DEVICE_ITEM);
  g_autoptr(GListStore) snaps = g_list_store_new (DS_TYPE_DEVICE_ITEM);
  g_autoptr(GListStore) empty = g_list_store_new (DS_TYPE_DEVICE_ITEM);
  g_autoptr(DsDeviceItem) snap = ds_device_item_new (make_device ("loop0", DS_DEVICE_LOOP, 64 << 20, NULL, NULL,
                                                                  "/var/lib/snapd/snaps/a.snap", FALSE));
  g_autoptr(DsDeviceItem) loop = ds_device_item_new (make_device ("loop7", DS_DEVICE_LOOP, 64 << 20, NULL, NULL,
                                                                  "/var/tmp/x.img", FALSE));
  guint position = 99;

  /* The device used last, when it is there. */
  ck_assert (ds_device_list_pick (model, "/dev/loop11", NULL, &position));
  ck_assert_str_eq (path_at (model, position), "/dev/loop11");

  /* Else the largest fixed disk: the 1 TB NVMe, not the 4 TB USB stick,
   * not a loop device. */
  ck_assert (ds_device_list_pick (model, "/dev/sdz", NULL, &position));
  ck_assert_str_eq (path_at (model, position), "/dev/nvme0n1");
  ck_assert (ds_device_list_pick (model, NULL, NULL, &position));
  ck_assert_str_eq (path_at (model, position), "/dev/nvme0n1");

  /* No disk at all: the first that is not a snap's. */
  g_list_store_append (loops, snap);
  g_list_store_append (loops, loop);
  ck_assert (ds_device_list_pick (G_LIST_MODEL (loops), NULL, NULL, &position));
  ck_assert_uint_eq (position, 1);

  /* Only snaps: the first one rather than nothing. */
  g_list_store_append (snaps, snap);
  ck_assert (ds_device_list_pick (G_LIST_MODEL (snaps), NULL, NULL, &position));
  ck_assert_uint_eq (position, 0);

  position = 42;
  ck_assert (!ds_device_list_pick (G_LIST_MODEL (empty), "/dev/sda", NULL, &position));
  ck_assert_uint_eq (position, 42);

  /* Devices that cannot be opened are passed over, the one used last
   * too: the next largest disk, then what is left, then none. */
  ck_assert (ds_device_list_pick (model, "/dev/nvme0n1", not_nvme, &position));
  ck_assert_str_eq (path_at (model, position), "/dev/sda");
  ck_assert (ds_device_list_pick (G_LIST_MODEL (snaps), NULL, not_snap, &position) == FALSE);
  position = 42;
  ck_assert (!ds_device_list_pick (model, NULL, nothing, &position));
  ck_assert_uint_eq (position, 42);

  /* The real test: what this machine lists.  The window never starts on
   * a device the kernel refuses to open (here, maybe, the system disk a
   * container keeps even root from). */
  {
    g_autoptr(GPtrArray) devices = ds_device_list (NULL);
    g_autoptr(GPtrArray) items = devices ? ds_device_list_arrange (devices, FALSE) : NULL;
    g_autoptr(GListStore) store = g_list_store_new (DS_TYPE_DEVICE_ITEM);

    for (guint i = 0; items != NULL && i < items->len; i++)
      g_list_store_append (store, items->pdata[i]);
    if (ds_device_list_pick (G_LIST_MODEL (store), NULL, ds_device_list_can_open, &position))
      {
        g_autoptr(DsDeviceItem) item = g_list_model_get_item (G_LIST_MODEL (store), position);
        const char *path = ds_device_item_get_path (item);
        int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        int err = errno;

        ds_test_note ("this machine: the window starts on %s", path);
        if (fd >= 0)
          close (fd);
        ck_assert_msg (fd >= 0 || err == EACCES, "%s does not open: %s", path, g_strerror (err));
      }
    else
      ds_test_note ("this machine: no device to start on");
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("device-list");
  TCase *tc = tcase_create ("core");

  /* test_start_device lists and opens this machine's real devices: with
   * another suite's slow fault disk among them that takes longer than
   * Check's default 4 s (a rehearsal of CI timed out at 4.37 s while UI
   * tests ran beside it). */
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_search);
  tcase_add_test (tc, test_snaps);
  tcase_add_test (tc, test_start_device);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
