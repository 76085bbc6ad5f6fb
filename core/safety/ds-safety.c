/* ds-safety.c: the write gate's rules, in one function, on plain facts
 *
 * Read top to bottom, ds_safety_decide() is the whole policy:
 *   1. there must be something to test (or, for --create, nothing yet);
 *   2. it must be a block device or a non-empty regular file;
 *   3. a read test may go ahead;
 *   4. a write is refused, whatever the user confirms, when the target is
 *      read-only, in use (mounted, swap), shares bytes with anything in
 *      use or with a loop, dm or md device over them (stacked above,
 *      below or beside it, at any offset: see DsShare), is locked by
 *      another program, is a file that holds a filesystem or partition
 *      table (a disk image is not a test file; erase, whose point is
 *      destroying data, may take one once named), or when a fact could
 *      not be probed;
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
  g_clear_pointer (&facts->dangling_link, g_free);
  g_clear_pointer (&facts->locked_by, g_free);
  g_clear_pointer (&facts->unknown, g_free);
  g_clear_pointer (&facts->confirm, g_free);
  for (unsigned i = 0; i < facts->n_shares; i++)
    {
      g_free (facts->shares[i].how);
      g_free (facts->shares[i].in_use);
      g_free (facts->shares[i].base);
    }
  g_clear_pointer (&facts->shares, g_free);
  facts->n_shares = 0;
}

gboolean
ds_share_overlaps (const DsShare *share)
{
  if (share->end == DS_SHARE_END_UNKNOWN || share->target_end == DS_SHARE_END_UNKNOWN)
    return TRUE;

  return share->start < share->target_end && share->target_start < share->end;
}

/* What stops a write among the shares: the first one on the target's
 * bytes that is in use, else the first one there that counts unused (a
 * loop, dm or md device); NULL when none does. */
static const DsShare *
blocking_share (const DsTargetFacts *facts)
{
  const DsShare *unused = NULL;

  for (unsigned i = 0; i < facts->n_shares; i++)
    {
      const DsShare *share = &facts->shares[i];

      if (!ds_share_overlaps (share))
        continue;
      if (share->in_use != NULL)
        return share;
      if (!share->only_in_use && unused == NULL)
        unused = share;
    }

  return unused;
}

/* " (both cover bytes 1048576 to 5242879 of /x/f.img)" when they meet on
 * part of the base only (an offset loop), else "". */
static char *
describe_overlap (const DsShare *share)
{
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;

  if (share->base == NULL || share->end == DS_SHARE_END_UNKNOWN ||
      share->target_end == DS_SHARE_END_UNKNOWN ||
      (share->start == share->target_start && share->end == share->target_end))
    return g_strdup ("");

  from = g_strdup_printf ("%" G_GUINT64_FORMAT, MAX (share->start, share->target_start));
  to = g_strdup_printf ("%" G_GUINT64_FORMAT, MIN (share->end, share->target_end) - 1);
  /* Translators: byte offsets, then the file or device where two devices
   * meet: " (both cover bytes 1048576 to 5242879 of /srv/disk.img)". */
  return g_strdup_printf (_(" (both cover bytes %s to %s of %s)"), from, to, share->base);
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

/* Nothing at the path (or it cannot be looked at): only --create may go
 * on, and only where nothing is, not even a dangling symlink. */
static gboolean
decide_missing (const DsTargetFacts  *facts,
                DsSafetyIntent        intent,
                GError              **error)
{
  const char *path = facts->path;

  /* A dangling symlink is something at the path: --create neither
   * follows it (the file would land where it points) nor replaces it. */
  if (intent == DS_SAFETY_CREATE && facts->dangling_link != NULL)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to create a test file at %s: it is a symbolic "
                   "link (to %s, which does not exist), and --create never "
                   "follows or replaces anything at the path. Name a path "
                   "where nothing is"), path, facts->dangling_link);
  if (intent == DS_SAFETY_CREATE && facts->stat_errno == ENOENT)
    return TRUE;
  if (facts->stat_errno == ENOENT && facts->dangling_link != NULL)
    return refuse (error, DS_ERROR_NOT_FOUND,
                   _("%s does not exist: it is a symbolic link to %s, which "
                   "does not exist"), path, facts->dangling_link);
  if (facts->stat_errno == ENOENT)
    return refuse (error, DS_ERROR_NOT_FOUND,
                   _("%s does not exist%s"), path,
                   intent == DS_SAFETY_READ ? "" :
                   _("; --create SIZE makes a test file of Diskscope's own there"));

  ds_set_error_from_errno (error, facts->stat_errno, path);
  return FALSE;
}

/* The refusal for a device stacked on the target's bytes: the way to it,
 * its use, and where they meet. */
static gboolean
refuse_share (const char     *what,
              const DsShare  *share,
              GError        **error)
{
  g_autofree char *overlap = describe_overlap (share);

  if (share->in_use != NULL)
    return refuse (error, DS_ERROR_REFUSED,
                   _("Refusing to write to %s: %s, which is %s%s. A write "
                   "would change the data under it: stop what uses it first"),
                   what, share->how, share->in_use, overlap);

  return refuse (error, DS_ERROR_REFUSED,
                 _("Refusing to write to %s: %s%s, and a write would change "
                 "the data it shows. Detach it first (losetup -d for a loop "
                 "device; dmsetup remove or mdadm --stop for a mapped or "
                 "RAID device)"), what, share->how, overlap);
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
  const DsShare *share;

  /* 1. Something to test; for --create, nothing there yet. */
  if (facts->kind == DS_FACTS_MISSING)
    return decide_missing (facts, intent, error);
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
  if ((share = blocking_share (facts)) != NULL)
    return refuse_share (what, share, error);
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
