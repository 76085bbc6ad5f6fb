/* ds-json-pack-private.h: what the packer (ds-json-pack.c) leaves for the
 * list readers (ds-json-list.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-json.h"

G_BEGIN_DECLS

#define MAX_FIELDS  8

#define MARKER_PREFIX "\001ds-pack "

typedef enum {
  CELL_MISSING,
  CELL_NULL,
  CELL_INT,
  CELL_DOUBLE,
} CellKind;

typedef struct {
  union {
    gint64 i;
    double d;
  };
  guint32 kind;
} Cell;

struct _DsJsonPackTable {
  guint   n_fields;             /* 0: a list of numbers */
  char   *fields[MAX_FIELDS];
  guint   length;
  GArray *cells;                /* length * MAX (n_fields, 1) */
};

struct _DsJsonPack {
  guint64    nonce;
  GPtrArray *tables;
};

/* The pack of the load on this thread (ds_json_pack_set_current()). */
DsJsonPack *_ds_json_pack_get_current (void);

G_END_DECLS
