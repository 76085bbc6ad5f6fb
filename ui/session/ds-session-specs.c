/* ds-session-specs.c: a session's settings, and the specs built from them
 *
 * A page's Start asks the session for a spec of its kind: the kind's
 * defaults (ds_bench_spec_init), then what the user set in the
 * preferences (accuracy, the Benchmark's block size, the test capacity
 * of the kinds that take one, the file size), then the page's own
 * controls.  Whether a write test may run, and whether it needs the
 * device's name typed, is ds_session_check_write()'s.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-session-private.h"
#include "ds-target.h"

GSettings *
ds_session_get_settings (DsSession *self)
{
  g_return_val_if_fail (DS_IS_SESSION (self), NULL);

  return self->settings;
}

DsUnits
ds_session_get_units (DsSession *self)
{
  g_return_val_if_fail (DS_IS_SESSION (self), DS_UNITS_MB);

  return self->units;
}

void
ds_session_set_accuracy (DsSession *self,
                         unsigned   accuracy)
{
  g_return_if_fail (DS_IS_SESSION (self));

  self->accuracy = accuracy;
}

void
ds_session_init_spec (DsSession   *self,
                      DsBenchSpec *spec,
                      DsBenchKind  kind,
                      const char  *target_path)
{
  const DsBenchOps *ops = ds_bench_get (kind);
  unsigned accuracy;

  g_return_if_fail (DS_IS_SESSION (self));
  g_return_if_fail (spec != NULL);

  accuracy = self->accuracy ? self->accuracy : g_settings_get_uint (self->settings, "accuracy");

  ds_bench_spec_init (spec, kind);
  spec->target_path = g_strdup (target_path);
  ds_bench_spec_set_accuracy (spec, accuracy);
  if (ops != NULL && (ops->spec_flags & DS_BENCH_SPEC_BLOCK_SETTING))
    spec->block_size_bytes = g_settings_get_uint64 (self->settings, "block-size");
  /* Short-stroking, as diskscope-cli's --capacity: the kinds that read
   * across the device. */
  if (ops != NULL && ops->takes_capacity)
    spec->capacity_bytes = g_settings_get_uint64 (self->settings, "capacity");
  /* The size of a test file of the kind's own (File Benchmark's). */
  if (ops != NULL && ops->file_size != NULL)
    *ops->file_size (spec) = g_settings_get_uint64 (self->settings, "file-size");
}

gboolean
ds_session_kind_needs_device (DsBenchKind kind)
{
  const DsBenchOps *ops = ds_bench_get (kind);

  /* Health opens nothing itself (smartctl does), but reads the device the
   * user picked. */
  return ops != NULL && (ops->opens_target || (ops->spec_flags & DS_BENCH_SPEC_NEEDS_DEVICE));
}

DsWriteCheck
ds_session_check_write (DsSession          *self,
                        const DsBenchSpec  *spec,
                        GError            **error)
{
  g_return_val_if_fail (DS_IS_SESSION (self), DS_WRITE_REFUSED);
  g_return_val_if_fail (spec != NULL, DS_WRITE_REFUSED);

  /* Read tests never write; the file benchmark writes only its own test
   * file.  Every write test (--write, a pattern that writes, erase), on a
   * device or a file, asks for the typed name. */
  if (!ds_bench_spec_is_write_test (spec))
    return DS_WRITE_NONE;

  /* Confirmed by name or not, some targets may not be written at all
   * (mounted, holders, read-only): say so before asking for the name. */
  if (!ds_target_check_write (spec->target_path, spec->target_path, error))
    return DS_WRITE_REFUSED;

  return DS_WRITE_CONFIRM;
}
