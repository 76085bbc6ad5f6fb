/* ds-buffer.h: aligned I/O buffers and incompressible data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* xoshiro256**: fast, good enough that zram/SSD compression finds nothing. */
typedef struct {
  uint64_t s[4];
} DsRng;

void     ds_rng_seed     (DsRng    *rng,
                          uint64_t  seed);
uint64_t ds_rng_next     (DsRng    *rng);
/* Uniform in [0, bound), bound > 0. */
uint64_t ds_rng_below    (DsRng    *rng,
                          uint64_t  bound);

/* Aligned to @align (a power of two >= sizeof (void *)); NULL on ENOMEM. */
void    *ds_buffer_alloc (size_t    size,
                          size_t    align);
void     ds_buffer_free  (void     *buffer);

/* Fills @buffer with random bytes. */
void     ds_buffer_fill  (void     *buffer,
                          size_t    size,
                          DsRng    *rng);
/* TRUE when all @len bytes at @buf are zero. */
int      ds_buffer_is_zero (const void *buf,
                            size_t      len);

/* Cheap refresh before each write: a new random word every 512 bytes, so no
 * two blocks a run writes are alike (defeats dedup and compression). */
void     ds_buffer_refresh (void   *buffer,
                            size_t  size,
                            DsRng  *rng);
