// SPDX-License-Identifier: MIT
/*
 * SipHash-2-4, written from the paper's description (section 2): the
 * key is two little-endian u64 words, the message is read as
 * little-endian u64 words, the last one holding the remaining bytes and
 * the message length mod 256 in its top byte; two SipRounds per word,
 * four at the end.  Checked against the paper's appendix A test vector
 * (key 00..0f, message 00..0e: 0xa129ca6149be45e5) by tests/redact.bats.
 */
#include "fmt/siphash.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

struct sip {
	uint64_t v0, v1, v2, v3;
};

static void sipround(struct sip *s)
{
	s->v0 += s->v1;
	s->v1 = ROTL(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = ROTL(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = ROTL(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = ROTL(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = ROTL(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = ROTL(s->v2, 32);
}

static uint64_t le64(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void compress(struct sip *s, uint64_t m)
{
	s->v3 ^= m;
	sipround(s);
	sipround(s);
	s->v0 ^= m;
}

uint64_t pd_siphash24(uint64_t k0, uint64_t k1, const void *p, size_t n)
{
	const uint8_t *b = p;
	struct sip s = {
		k0 ^ 0x736f6d6570736575ULL,
		k1 ^ 0x646f72616e646f6dULL,
		k0 ^ 0x6c7967656e657261ULL,
		k1 ^ 0x7465646279746573ULL,
	};
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		compress(&s, le64(b + i, 8));
	compress(&s, le64(b + i, n - i) | (uint64_t)(n & 0xff) << 56);
	s.v2 ^= 0xff;
	for (int r = 0; r < 4; r++)
		sipround(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
