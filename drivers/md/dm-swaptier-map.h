/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dm-swaptier: the block map, the reverse map and the per-tier allocators.
 *
 * This file and dm-swaptier-map.c are plain C with no bio or locking code,
 * so that the host unit tests and the fuzzer compile them unchanged against
 * small shim headers (tests/unit/shim).
 *
 * Concurrency: the map does no locking of its own. Every function below
 * that takes a struct swt_map must be called with the owner's lock held
 * (in the target, pool->lock, taken with interrupts disabled); none of them
 * sleeps or allocates, except swt_map_create() and swt_map_destroy(),
 * which may sleep and are called before the map is shared or after it no
 * longer is. The sizing helpers swt_map_default_reserve(),
 * swt_map_tier_use() and swt_map_tiers_use() are pure: any context, no
 * lock (the constructor calls them).
 */
#ifndef DM_SWAPTIER_MAP_H
#define DM_SWAPTIER_MAP_H

#include <linux/types.h>

/* The block size, the limits and the option ranges userspace sees. */
#include "dm-swaptier-abi.h"

/*
 * Discards passed down are a hint to the tier, never a reason for a write
 * to wait: at most this many blocks wait on the trim chain, the rest are
 * freed undiscarded, and so is the chain when an allocation finds no room.
 */
#define SWT_TRIM_BACKLOG	8192U

/*
 * Logical blocks (what swap addresses) and physical blocks (a global index
 * over the concatenated tiers) are different types, so that sparse catches
 * one passed where the other is meant.
 */
typedef u32 __bitwise swt_lblk_t;
typedef u32 __bitwise swt_pblk_t;

#define SWT_NO_PBLK	((__force swt_pblk_t)0xffffffffU)

static inline swt_lblk_t to_lblk(u32 b) { return (__force swt_lblk_t)b; }
static inline u32 from_lblk(swt_lblk_t b) { return (__force u32)b; }
static inline swt_pblk_t to_pblk(u32 b) { return (__force swt_pblk_t)b; }
static inline u32 from_pblk(swt_pblk_t b) { return (__force u32)b; }

/* The kinds of copy between tiers, as counted in struct swt_stats. */
enum swt_mig_kind {
	SWT_MIG_DEMOTE,
	SWT_MIG_PROMOTE,
	SWT_MIG_EVACUATE,
	SWT_MIG_KINDS
};

struct swt_tier_stats {
	u64 reads;		/* read bios served by this tier */
	u64 writes;		/* write bios placed on this tier */
	u64 errors;		/* bios this tier completed with an error */
	u64 refused;		/* failed writes placed again on a slower tier */
};

/*
 * Every event counter of a device, in one place: the map counts its own,
 * the target the rest, all under the owner's lock; "clear_stats" zeroes
 * the whole. The "stats" message prints each by name.
 */
struct swt_stats {
	struct swt_tier_stats tier[SWT_MAX_TIERS];
	/* counted by the map */
	u64 write_allocs;	/* blocks allocated for writes */
	u64 seq_writes;		/* allocations right after the previous one */
	u64 trims_skipped;	/* blocks freed without the discard */
	u64 moved;		/* blocks swt_map_move() remapped */
	u64 move_lost;		/* ... dropped because a write or discard won */
	/* counted by the target */
	u64 zero_reads;		/* reads of unmapped blocks, served as zeros */
	u64 discards;		/* discard and write-zeroes bios */
	u64 discarded;		/* blocks they unmapped */
	u64 deferred;		/* writes that waited for a free block */
	u64 batches;		/* batches of gathered writes placed */
	u64 batched;		/* writes in them */
	u64 trims;		/* discards passed down to tiers */
	u64 mig_copies[SWT_MIG_KINDS];	/* copies done, by kind */
	u64 mig_blocks[SWT_MIG_KINDS];	/* blocks they moved */
	u64 mig_errors;		/* copies a tier failed */
	u64 agings;		/* times every heat was halved */
};

struct swt_tier {
	u32 start;		/* first global physical block of the tier */
	u32 nr_blocks;
	u32 nr_free;		/* free and not held by any frontier */
	u32 nr_mapped;		/* blocks a logical block points to */
	u32 cursor;		/* where the next extent search starts */
	bool no_alloc;		/* being evacuated: nothing new lands here */
	/*
	 * A write failed here (zram at its mem_limit, a failing disk): new
	 * writes go to other tiers until SWT_REFUSE_TRIMS blocks of this one
	 * have been discarded, until a whole heat period has passed, or until
	 * no other tier has room. A refusal that follows a retry in which no
	 * write succeeded lasts twice as long as the one before (at most
	 * 1 << SWT_REFUSE_MAX_SHIFT times), so that a tier that stays full
	 * costs a failed batch ever more rarely.
	 */
	bool refusing;
	bool refuse_retry;	/* a refusal ended, no write succeeded since */
	u8 refuse_shift;	/* the refusal lasts 1 << refuse_shift times */
	u8 refuse_ages;		/* agings since it refused */
	u32 refuse_trims;	/* blocks discarded since it refused */
};

/* An open extent a CPU allocates from, one per CPU and tier. */
struct swt_frontier {
	u32 next;		/* next physical block to hand out */
	u32 end;		/* one past the extent */
	u32 last;		/* one past the previous allocation */
};

#define SWT_EPOCHS	64

/* A list of physical blocks, linked through their reverse map entries. */
struct swt_chain {
	u32 head;
	u32 tail;
	u32 count;
};

/*
 * The reads started while an epoch was current, and the physical blocks
 * freed while it was current.
 */
struct swt_epoch {
	u32 readers;
	struct swt_chain freed;
};

struct swt_map {
	u32 nr_logical;
	u32 nr_physical;
	u32 reserve;
	unsigned int nr_tiers;
	unsigned int nr_cpus;
	u32 frontier_blocks;
	u32 nr_mapped;
	u32 trim_mask;		/* tiers whose freed blocks must be discarded */

	swt_pblk_t *l2p;	/* logical -> physical, SWT_NO_PBLK if unmapped */
	u32 *p2l;		/* physical -> logical, or a state (see .c) */
	unsigned long *used;	/* bit set: physical block not free */
	/*
	 * [cpu * nr_tiers + tier]; row nr_cpus is the migration frontier,
	 * where copies between tiers write.
	 */
	struct swt_frontier *front;

	struct swt_epoch ep[SWT_EPOCHS];
	unsigned int ep_cur;	/* epoch new reads and frees join */
	unsigned int ep_old;	/* oldest epoch that may have readers */

	struct swt_chain ready;	/* freed, no reader left: to reclaim */
	struct swt_chain trim;	/* to discard on the tier, then free */
	u32 nr_pending;		/* freed, waiting for readers */

	struct swt_stats st;

	struct swt_tier tier[SWT_MAX_TIERS];
};

/* An extent of logical blocks found by swt_map_lookup(). */
struct swt_extent {
	swt_lblk_t lblk;
	u32 len;
	swt_pblk_t pblk;	/* SWT_NO_PBLK for an unmapped run */
	unsigned int tier;
};

/* A run of physical blocks handed out by swt_map_alloc(). */
struct swt_alloc {
	swt_pblk_t pblk;
	u32 len;
	unsigned int tier;
	bool seq;		/* follows this frontier's previous allocation */
};

/* Default relocation reserve for @nr_physical blocks. */
u32 swt_map_default_reserve(u64 nr_physical);

/*
 * A tier holds at most every logical block, so a map of @nr_logical blocks
 * uses at most nr_logical + max(nr_logical, SWT_TIER_SLACK) blocks of a
 * tier: the rest of a large disk is left alone, and the reverse map costs
 * memory in proportion to <len>, not to the disk.
 */
#define SWT_TIER_SLACK		262144U		/* 1 GiB */
u32 swt_map_tier_use(u64 tier_blocks, u32 nr_logical);
/*
 * The same for @nr_tiers tiers into @use; where their parts add up to
 * more than the map can address (SWT_MAX_BLOCKS), the slowest tiers give
 * way, down to one block each.
 */
void swt_map_tiers_use(const u64 *tier_blocks, unsigned int nr_tiers,
		       u32 nr_logical, u32 *use);

/*
 * Build a map of @nr_logical blocks over @nr_tiers tiers of @tier_blocks
 * blocks each. May sleep. Returns 0 or -errno; on error nothing is left
 * allocated.
 */
int swt_map_create(struct swt_map *m, u32 nr_logical, unsigned int nr_tiers,
		   const u32 *tier_blocks, u32 reserve, unsigned int nr_cpus,
		   u32 frontier_blocks);
void swt_map_destroy(struct swt_map *m);

/* Kernel memory the map uses, in bytes. */
u64 swt_map_bytes(const struct swt_map *m);

/*
 * Allocate up to @want physically consecutive blocks for a write from the
 * fastest tier with room, through @cpu's frontier; a refusing tier only
 * when no other has room. Returns false when no block is free right now
 * (the caller retries after blocks are reclaimed).
 */
bool swt_map_alloc(struct swt_map *m, unsigned int cpu, u32 want,
		   struct swt_alloc *a);

/* The same, on none of the tiers whose bit is set in @avoid. */
bool swt_map_alloc_avoid(struct swt_map *m, unsigned int cpu, u32 want,
			 unsigned long avoid, struct swt_alloc *a);

/*
 * Allocate up to @want consecutive blocks on tier @t itself, through the
 * migration frontier. Returns false if the tier has no free block, or
 * refuses writes.
 */
bool swt_map_alloc_on(struct swt_map *m, unsigned int t, u32 want,
		      struct swt_alloc *a);

/*
 * Stop (@on false) or restart new allocations on tier @t; stopping gives
 * back the unused part of every frontier on it.
 */
void swt_map_set_alloc(struct swt_map *m, unsigned int t, bool on);

/*
 * A write to tier @t failed: if a slower tier takes writes, where the
 * failed one may go instead, tier @t refuses new ones for now and this
 * returns true. The refusal lasts twice as long as the last one if no
 * write to the tier succeeded since that one ended (a write committed or
 * moved to the tier clears refuse_retry). Restarting allocation on a tier
 * (swt_map_set_alloc()) ends its refusal and forgets how long the last
 * one was.
 */
bool swt_map_tier_refused(struct swt_map *m, unsigned int t);

/*
 * Every tier takes writes again, and its next refusal is a short one (a
 * resume: a tier may have been fixed, or zram's mem_limit raised).
 */
void swt_map_end_refusals(struct swt_map *m);

/*
 * At each aging: a refusal that has lasted a whole heat period (times
 * 1 << refuse_shift) ends, so that a tier whose freed blocks are not
 * discarded (no discard_passdown) is tried again; if it still fails, its
 * next failure starts a new, longer one.
 */
void swt_map_age_refusals(struct swt_map *m);

/*
 * A write of @len blocks from @lblk to the blocks allocated at @pblk has
 * completed: point the logical blocks there and free what they pointed to
 * (once no reader can still reach it).
 */
void swt_map_commit(struct swt_map *m, swt_lblk_t lblk, swt_pblk_t pblk,
		    u32 len);

/* A write failed: give its never-published blocks back at once. */
void swt_map_abort(struct swt_map *m, swt_pblk_t pblk, u32 len);

/*
 * A copy of @len blocks from @src to @dst (allocated by swt_map_alloc_on)
 * completed. Each block src + i that still holds logical block @lblk[i]
 * now maps to dst + i, and src + i is freed once no reader can reach it;
 * where a write or discard came first, dst + i is given back instead.
 * The caller must have held a read ticket (swt_map_read_begin()) since
 * before it read @lblk from the map, so that no source block freed in the
 * meantime was reused. Returns how many blocks moved.
 */
u32 swt_map_move(struct swt_map *m, const swt_lblk_t *lblk, swt_pblk_t src,
		 swt_pblk_t dst, u32 len);

/* The logical block physical block @p holds, or SWT_MAX_BLOCKS if none. */
static inline u32 swt_map_owner(const struct swt_map *m, u32 p)
{
	u32 v = m->p2l[p];

	return v < SWT_MAX_BLOCKS ? v : SWT_MAX_BLOCKS;
}

/* Unmap up to @len blocks from @lblk (discard); reads return zeros after. */
void swt_map_unmap(struct swt_map *m, swt_lblk_t lblk, u32 len);

/*
 * The longest run from @lblk, at most @max blocks, that is either unmapped
 * or mapped to consecutive blocks of one tier.
 */
void swt_map_lookup(const struct swt_map *m, swt_lblk_t lblk, u32 max,
		    struct swt_extent *e);

/*
 * Reads: swt_map_read_begin() returns a ticket to pass to swt_map_read_end()
 * when the read completes; a block freed in between is not reused before.
 */
unsigned int swt_map_read_begin(struct swt_map *m);
void swt_map_read_end(struct swt_map *m, unsigned int ticket);

/*
 * Freed blocks that no reader can reach wait on the ready chain until
 * swt_map_reclaim() returns them to their tier (or moves them to the trim
 * chain for tiers in trim_mask). Returns how many it took, at most @max.
 */
u32 swt_map_reclaim(struct swt_map *m, u32 max);
static inline bool swt_map_reclaim_pending(const struct swt_map *m)
{
	return m->ready.count != 0;
}

/*
 * Take a run of physically consecutive blocks, at most @max, off the trim
 * chain; the caller discards it and then calls swt_map_trim_done().
 */
bool swt_map_trim_next(struct swt_map *m, u32 max, swt_pblk_t *pblk, u32 *len,
		       unsigned int *tier);
/*
 * The run is discarded: free its blocks. A refusing tier takes writes
 * again once SWT_REFUSE_TRIMS of its blocks were discarded (for zram, the
 * memory they held is back), times 1 << refuse_shift.
 */
#define SWT_REFUSE_TRIMS	256U
#define SWT_REFUSE_MAX_SHIFT	5U
void swt_map_trim_done(struct swt_map *m, swt_pblk_t pblk, u32 len);

/* Return every frontier's unused blocks to the tiers. */
void swt_map_close_frontiers(struct swt_map *m);

/* Tier of a physical block, and the block's index inside its tier. */
unsigned int swt_map_tier_of(const struct swt_map *m, swt_pblk_t pblk);
static inline u32 swt_map_tier_offset(const struct swt_map *m, swt_pblk_t p)
{
	return from_pblk(p) - m->tier[swt_map_tier_of(m, p)].start;
}

/*
 * Check every invariant of the map; O(blocks). Returns 0, or a negative
 * number identifying the first broken invariant. For tests and the "check"
 * message.
 */
int swt_map_check(const struct swt_map *m, u32 *bad_block);

#endif
