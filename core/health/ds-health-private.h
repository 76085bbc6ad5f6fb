/* ds-health-private.h: what the files of core/health share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-health.h"

G_BEGIN_DECLS

/* The lenient getters: a member that is absent or of another type reads
 * as absent (NULL, FALSE), and a number as ds-health.h's markers say. */
static inline JsonNode *
member (JsonObject *o,
        const char *name)
{
  return o != NULL ? json_object_get_member (o, name) : NULL;
}

static inline JsonObject *
obj (JsonObject *o,
     const char *name)
{
  JsonNode *n = member (o, name);

  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static inline JsonArray *
arr (JsonObject *o,
     const char *name)
{
  JsonNode *n = member (o, name);

  return n != NULL && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

/* A number smartctl wrote: an integer.  Anything else that is there (a
 * string, a fraction, null, an object, an integer json-glib wrapped
 * because it did not fit 64 bits, or one equal to our own markers) is
 * DS_HEALTH_INVALID, never a figure. */
static inline int64_t
node_num (JsonNode *n)
{
  int64_t v;

  if (n == NULL)
    return DS_HEALTH_UNKNOWN;
  if (!JSON_NODE_HOLDS_VALUE (n))
    return DS_HEALTH_INVALID;
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_INT64:
      v = json_node_get_int (n);
      return v == DS_HEALTH_UNKNOWN || v == DS_HEALTH_INVALID ? DS_HEALTH_INVALID : v;
    case G_TYPE_DOUBLE:
      {
        double d = json_node_get_double (n);

        /* 2^53: every integer below is exact in a double. */
        if (d >= -9007199254740992.0 && d <= 9007199254740992.0 &&
            d == (double) (int64_t) d)
          return (int64_t) d;
        return DS_HEALTH_INVALID;
      }
    default:
      return DS_HEALTH_INVALID;
    }
}

static inline int64_t
num (JsonObject *o,
     const char *name)
{
  return node_num (member (o, name));
}

static inline const char *
str (JsonObject *o,
     const char *name)
{
  JsonNode *n = member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

static inline gboolean
boolean (JsonObject *o,
         const char *name,
         gboolean   *ret)
{
  JsonNode *n = member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    return FALSE;
  *ret = json_node_get_boolean (n);
  return TRUE;
}

/* {"value": N, "string": "..."}: the string. */
static inline const char *
value_string (JsonObject *o,
              const char *name)
{
  return str (obj (o, name), "string");
}

/* ds-health-self-test.c: the self-test state and log (ATA, NVMe, SCSI). */
void _ds_health_parse_self_tests (DsHealth   *health,
                                  JsonObject *root);

/* ds-health-range.c: decodes the count a counter attribute holds (5, 9,
 * 187, 197, 198: its count, or not_plausible saying why it holds none)
 * for a drive of @sectors logical sectors (0: not known). */
void ds_health_decode_attribute (DsHealthAttribute *attribute,
                                 uint64_t           sectors);

/* ds-health-errors.c: FALSE with @error when smartctl could not read the
 * device at all (@health's identity, messages and exit status parsed). */
gboolean _ds_health_check_readable (DsHealth  *health,
                                    GError   **error);

G_END_DECLS
