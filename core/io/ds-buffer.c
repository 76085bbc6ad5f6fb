/* ds-buffer.c: aligned I/O buffers and incompressible data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ds-buffer.h"

static inline uint64_t
rotl (uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += UINT64_C (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

void
ds_rng_seed (DsRng    *rng,
             uint64_t  seed)
{
  /* xoshiro's authors recommend seeding through splitmix64. */
  for (unsigned i = 0; i < 4; i++)
    rng->s[i] = splitmix64 (&seed);
}

uint64_t
ds_rng_next (DsRng *rng)
{
  uint64_t *s = rng->s;
  uint64_t result = rotl (s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);

  return result;
}

uint64_t
ds_rng_below (DsRng    *rng,
              uint64_t  bound)
{
  /* Lemire's multiply-shift; the bias (< bound / 2^64) is far below what a
   * benchmark's offsets could show. */
  return (uint64_t) (((unsigned __int128) ds_rng_next (rng) * bound) >> 64);
}

void *
ds_buffer_alloc (size_t size,
                 size_t align)
{
  void *buffer = NULL;

  if (align < sizeof (void *))
    align = sizeof (void *);
  if (size == 0)
    size = align;
  if (posix_memalign (&buffer, align, size) != 0)
    return NULL;

  return buffer;
}

void
ds_buffer_free (void *buffer)
{
  free (buffer);
}

void
ds_buffer_fill (void   *buffer,
                size_t  size,
                DsRng  *rng)
{
  uint8_t *p = buffer;
  size_t i = 0;

  for (; i + 8 <= size; i += 8)
    {
      uint64_t v = ds_rng_next (rng);
      memcpy (p + i, &v, 8);
    }
  if (i < size)
    {
      uint64_t v = ds_rng_next (rng);
      memcpy (p + i, &v, size - i);
    }
}

void
ds_buffer_refresh (void   *buffer,
                   size_t  size,
                   DsRng  *rng)
{
  uint8_t *p = buffer;

  for (size_t i = 0; i + 8 <= size; i += 512)
    {
      uint64_t v = ds_rng_next (rng);
      memcpy (p + i, &v, 8);
    }
}

int
ds_buffer_is_zero (const void *buf,
                   size_t      len)
{
  const unsigned char *p = buf;

  /* The first byte is zero and every byte equals the one before it. */
  return len == 0 || (p[0] == 0 && memcmp (p, p + 1, len - 1) == 0);
}
