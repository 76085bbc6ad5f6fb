/* ds-safety.c: the write gate's rules, in one function, on plain facts
 *
 * Read top to bottom, ds_safety_decide() is the whole policy:
 *   1. there must be something to test (or, for --create, nothing yet);
 *   2. it must be a block device or a non-empty regular file;
 *   3. a read test may go ahead;
 *   4. a write is refused, whatever the user confirms, when the target is
 *      read-only, in use (mounted, held, swap), the backing file of a loop
 *      device, locked by another program, a file that holds a filesystem
 *      or partition table (a disk image is not a test file; erase, whose
 *      point is destroying data, may take one once named), or when a fact
 *      could not be probed;
 *   5. otherwise a write needs the user to name the target again
 *      (--destroy-data=TARGET; the name typed in the app).  A device's
 *      signature is named in that refusal, and confirming is the user's
 *      call.
 * The facts come from ds_safety_probe() (ds-safety-probe.c); the tests
 * feed this function facts by hand (tests/test-safety.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdarg.h>
#include <string.h>

#include "ds-error.h"
#include "ds-safety.h"

void
ds_target_facts_clear (DsTargetFacts *facts)
{
  g_clear_pointer (&facts->path, g_free);
  g_clear_pointer (&facts->description, g_free);
  g_clear_pointer (&facts->in_use, g_free);
  g_clear_pointer (&facts->signature, g_free);
  g_clear_pointer (&facts->signature_label, g_free);
  g_clear_pointer (&facts->loop_device, g_free);
  g_clear_pointer (&facts->locked_by, g_free);
  g_clear_pointer (&facts->unknown, g_free);
  g_clear_pointer (&facts->confirm, g_free);
}

static gboolean
is_partition_table (const char *type)
{
  static const char *const tables[] = { "gpt", "dos", "atari", "bsd", "mac", "sgi", "sun" };

  for (unsigned i = 0; i < G_N_ELEMENTS (tables); i++)
    if (g_str_equal (type, tables[i]))
      return TRUE;

  return FALSE;
}

/* "contains an ext4 filesystem labelled “data”", "contains a gpt
 * partition table", "contains a swap area". */
static char *
describe_signature (const DsTargetFacts *facts)
{
  const char *sig = facts->signature;
  const char *article = strchr ("aeiouAEIOU", sig[0]) != NULL ? "an" : "a";

  if (is_partition_table (sig))
    return g_strdup_printf (_("contains a %s partition table"), sig);
  if (g_str_equal (sig, "swap"))
    return g_strdup (_("contains a swap area"));
  if (facts->signature_label != NULL)
    /* Translators: the first %s is the English article ("a" or "an"); a
     * language without one prints it with %1$.0s (nothing). */
    return g_strdup_printf (_("contains %s %s filesystem labelled “%s”"),
                            article, sig, facts->signature_label);

  /* Translators: see "contains %s %s filesystem labelled “%s”". */
  return g_strdup_printf (_("contains %s %s filesystem"), article, sig);
}

static gboolean
refuse (GError    **error,
        DsError     code,
        const char *format,
        ...) G_GNUC_PRINTF (3, 4);

static gboolean
refuse (GError    **error,
        DsError     code,
        const char *format,
        ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (DS_ERROR, code, format, args));
  va_end (args);

  return FALSE;
}

gboolean
ds_safety_decide (const DsTargetFacts  *facts,
                  DsSafetyIntent        intent,
                  GError              **error)
{
  const char *path = facts->path;
  const char *what = facts->description != NULL ? facts->description : path;
  gboolean file = facts->kind == DS_FACTS_FILE;
  g_autofree char *signature = NULL;

  /* 1. Something to test; for --create, nothing there yet. */
  if (facts->kind == DS_FACTS_MISSING)
    {
      if (intent == DS_SAFETY_CREATE && facts->stat_errno == ENOENT)
        return TRUE;
      if (facts->stat_errno == ENOENT)
        return refuse (error, DS_ERROR_NOT_FOUND,
                       _("%s does not exist%s"), path,
                       intent == DS_SAFETY_READ ? "" :
                       _("; --create SIZE makes a test file of Diskscope's own there"));
      ds_set_error_from_errno (error, facts->stat_errno, path);
      return FALSE;
    }
  if (intent == DS_SAFETY_CREATE)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to create a test file at %s: it exists, and "
                   "--create never replaces anything. Name a path that does "
                   "not exist (to test %s itself, confirm with "
                   "--destroy-data=%s instead)"), path, path, path);

  /* 2. A block device, or a regular file with something in it. */
  if (facts->kind == DS_FACTS_OTHER)
    return refuse (error, DS_ERROR_INVALID,
                   _("%s is %s, not a block device or regular file"), path,
                   facts->other_what != NULL ? facts->other_what : _("something else"));
  if (file && facts->size_bytes == 0)
    return refuse (error, DS_ERROR_INVALID,
                   _("%s is empty (0 bytes): there is nothing to test in it. "
                   "For a test file of Diskscope's own, remove it and run "
                   "with --create SIZE"), path);

  /* 3. Reading changes nothing. */
  if (intent == DS_SAFETY_READ)
    return TRUE;

  /* 4. What no confirmation overrides. */
  if (facts->signature != NULL)
    signature = describe_signature (facts);

  if (facts->unknown != NULL)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to write to %s: cannot tell whether it is in use (%s)"),
                   what, facts->unknown);
  if (facts->read_only)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to write to %s: the %s is read-only"), what,
                   file ? _("filesystem it is on") : _("device"));
  if (facts->in_use != NULL)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to write to %s: it is in use (%s)%s%s. "
                   "Unmount it and stop what uses it first"),
                   what, facts->in_use,
                   signature != NULL ? _(" and ") : "", signature != NULL ? signature : "");
  if (facts->loop_device != NULL)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to write to %s: it is the backing file of the "
                   "loop device %s, and writing it would write under that "
                   "device. Detach the loop device first (losetup -d)"),
                   what, facts->loop_device);
  if (facts->locked_by != NULL)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to write to %s: %s holds a lock on it (a virtual "
                   "machine's disk image or a database, most likely). Stop "
                   "that program first"), what, facts->locked_by);
  if (file && signature != NULL && intent != DS_SAFETY_ERASE)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to write to %s: it %s, so it is a disk image, "
                   "not a test file. Diskscope writes only to files that hold "
                   "no filesystem or partition table: test on a new file with "
                   "--create SIZE, or wipe the signature first (wipefs -a %s) "
                   "if the image is really not needed"), what, signature, path);

  /* 5. The user must name it: a write destroys what it holds. */
  if (!facts->confirm_matches)
    {
      g_autofree char *named = NULL;

      if (facts->confirm != NULL && facts->confirm[0] != '\0')
        named = g_strdup_printf (_(" The confirmation names %s, not %s."), facts->confirm, path);

      return refuse (error, DS_ERROR_REFUSED,
                     _("Refusing to write to %s: %s destroys the data "
                     "on it%s%s.%s Confirm by naming the %s (diskscope-cli: "
                     "--destroy-data=%s)%s"),
                     what, intent == DS_SAFETY_ERASE ? _("erasing") : _("a write test"),
                     signature != NULL ? _(", and it ") : "", signature != NULL ? signature : "",
                     named != NULL ? named : "", file ? _("file") : _("device"), path,
                     file && intent == DS_SAFETY_WRITE ?
                     _(", or test on a new file of Diskscope's own with --create SIZE") : "");
    }

  /* Confirmed; a device's signature, if any, was the user's call. */
  return TRUE;
}
