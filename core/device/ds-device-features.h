/* ds-device-features.h: what a block device can do (TRIM, queues, link, SMART)
 *
 * The features HD Tune's Info tab lists, read from sysfs when asked (the
 * device list does not need them): discard (TRIM/UNMAP/deallocate), write
 * zeroes, FUA, the queues and the device's own queue depth (NCQ), the link
 * speed (SATA, PCIe, USB) and where SMART comes from for its transport.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-device.h"

G_BEGIN_DECLS

typedef enum {
  DS_SMART_UNKNOWN,
  DS_SMART_NONE,      /* a virtual device (loop, zram, md, dm, virtio) */
  DS_SMART_ATA,       /* ATA SMART (SATA, and SAT behind most bridges) */
  DS_SMART_NVME,      /* the NVMe health log */
  DS_SMART_SCSI,      /* SCSI log pages (SAS) */
  DS_SMART_USB,       /* only if the USB bridge passes it on */
} DsSmartSource;

typedef struct {
  gboolean      discard;               /* accepts TRIM/UNMAP/deallocate */
  uint64_t      discard_granularity;   /* bytes; 0 when no discard */
  uint64_t      discard_max_bytes;
  uint64_t      write_zeroes_max_bytes; /* 0: no write-zeroes command */
  gboolean      fua;                   /* forced unit access writes */
  unsigned      hw_queues;             /* blk-mq hardware queues; 0 unknown */
  unsigned      nr_requests;           /* block layer requests per queue */
  unsigned      device_queue_depth;    /* SCSI/ATA device queue depth (NCQ
                                        * when > 1); 0 unknown */
  char         *link_speed;            /* "6.0 Gbps", "8.0 GT/s PCIe x4",
                                        * "480 Mbps (USB)"; NULL unknown */
  char         *zoned;                 /* "host-managed", ...; NULL if not */
  DsSmartSource smart;
} DsDeviceFeatures;

/* Reads @device's features (for a partition, its disk's).  Never NULL. */
DsDeviceFeatures *ds_device_features_read (const DsDevice   *device);
void              ds_device_features_free (DsDeviceFeatures *features);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsDeviceFeatures, ds_device_features_free)

/* "NVMe health log", "Not available (virtual device)", ... (translated
 * by the caller: these are English, like the CLI's). */
const char       *ds_smart_source_to_string (DsSmartSource   source);

G_END_DECLS
