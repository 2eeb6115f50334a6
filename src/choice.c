// SPDX-License-Identifier: MIT
/*
 * A word among fixed choices: the command, and each option value that is
 * one of a few names (profile --by, records --order and --type,
 * --redact=).  One rule for all, as bpftool and git pick a command: the
 * exact name, else the one name the word begins; a word that begins
 * several is ambiguous, and one that begins none is unknown, with the
 * names close to it offered as git's help.c help_unknown_cmd does.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "perfdump.h"

/* Longer words are never near a name: no name is that long. */
#define NEAR_MAX_LEN 64

static bool begins(const struct choices *c, const char *name, const char *word,
		   size_t n)
{
	return c->icase ? strncasecmp(name, word, n) == 0
			: strncmp(name, word, n) == 0;
}

int choice_find(const struct choices *c, const char *word)
{
	size_t n = strlen(word), matches = 0;
	int found = CHOICE_NONE;

	for (size_t i = 0; i < c->n; i++) {
		const char *name = c->names[i];

		if (!name)
			continue;
		if (c->icase ? !strcasecmp(name, word) : !strcmp(name, word))
			return (int)i;
		if (n && begins(c, name, word, n)) {
			found = (int)i;
			matches++;
		}
	}
	return matches > 1 ? CHOICE_AMBIGUOUS : found;
}

static char fold(const struct choices *c, char ch)
{
	return c->icase && ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

/*
 * The edit distance of a and b: insertions, deletions, substitutions and
 * swaps of two neighbours each cost 1 (the optimal string alignment form
 * of Damerau-Levenshtein, as git's levenshtein.c counts a swap).  Both
 * are shorter than NEAR_MAX_LEN.
 */
static size_t distance(const struct choices *c, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[3][NEAR_MAX_LEN + 1]; /* rows i-2, i-1 and i of the table */

	for (size_t j = 0; j <= lb; j++)
		row[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *two = row[(i + 1) % 3], *up = row[(i + 2) % 3];
		size_t *cur = row[i % 3];

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = fold(c, a[i - 1]) != fold(c, b[j - 1]);
			size_t d = up[j - 1] + cost;

			if (up[j] + 1 < d)
				d = up[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    fold(c, a[i - 1]) == fold(c, b[j - 2]) &&
			    fold(c, a[i - 2]) == fold(c, b[j - 1]) &&
			    two[j - 2] + 1 < d)
				d = two[j - 2] + 1;
			cur[j] = d;
		}
	}
	return row[la % 3][lb];
}

size_t choice_near(const struct choices *c, const char *word, size_t *best,
		   size_t max)
{
	size_t len = strlen(word), least = SIZE_MAX, n = 0;
	size_t d[CHOICES_MAX];

	if (len >= NEAR_MAX_LEN)
		return 0;
	for (size_t i = 0; i < c->n && i < CHOICES_MAX; i++) {
		d[i] = SIZE_MAX;
		if (!c->names[i] || strlen(c->names[i]) >= NEAR_MAX_LEN)
			continue;
		d[i] = distance(c, word, c->names[i]);
		/* at most 2 edits, and 1 in 3 letters of the word: "stast"
		 * is near "stats", "ab" near nothing */
		if (d[i] > 2 || 3 * d[i] > len + 1)
			d[i] = SIZE_MAX;
		if (d[i] < least)
			least = d[i];
	}
	for (size_t i = 0; least != SIZE_MAX && i < c->n && i < CHOICES_MAX;
	     i++) {
		if (d[i] != least)
			continue;
		if (best && n < max)
			best[n] = i;
		n++;
	}
	return n;
}

/* Append s to buf (len bytes, *at of them used), cut at its end. */
static void add(char *buf, size_t len, size_t *at, const char *s)
{
	size_t k = strlen(s);

	if (k > len - 1 - *at)
		k = len - 1 - *at;
	memcpy(buf + *at, s, k);
	*at += k;
	buf[*at] = 0;
}

void choice_usage_error(const struct choices *c, const char *word,
			const char *ctx)
{
	char msg[2048];
	size_t at = 0, near[8], nnear;
	size_t wlen = strlen(word);
	int rc = choice_find(c, word);

	if (ctx) {
		add(msg, sizeof(msg), &at, ctx);
		add(msg, sizeof(msg), &at, ": ");
	}
	add(msg, sizeof(msg), &at,
	    rc == CHOICE_AMBIGUOUS ? "ambiguous " : "unknown ");
	add(msg, sizeof(msg), &at, c->what);
	add(msg, sizeof(msg), &at, " '");
	add(msg, sizeof(msg), &at, word);
	if (rc == CHOICE_AMBIGUOUS) {
		add(msg, sizeof(msg), &at, "'; it could be:");
		for (size_t i = 0; i < c->n; i++)
			if (c->names[i] && begins(c, c->names[i], word, wlen)) {
				add(msg, sizeof(msg), &at, " ");
				add(msg, sizeof(msg), &at, c->names[i]);
			}
	} else if ((nnear = choice_near(c, word, near, 8)) > 0) {
		if (nnear > 8)
			nnear = 8;
		add(msg, sizeof(msg), &at, "'; did you mean ");
		for (size_t i = 0; i < nnear; i++) {
			if (i)
				add(msg, sizeof(msg), &at,
				    i + 1 == nnear ? " or " : ", ");
			add(msg, sizeof(msg), &at, "'");
			add(msg, sizeof(msg), &at, c->names[near[i]]);
			add(msg, sizeof(msg), &at, "'");
		}
		add(msg, sizeof(msg), &at, "?");
	} else {
		add(msg, sizeof(msg), &at, "'; ");
		add(msg, sizeof(msg), &at, c->what);
		add(msg, sizeof(msg), &at, "s are:");
		for (size_t i = 0; i < c->n; i++)
			if (c->names[i]) {
				add(msg, sizeof(msg), &at, " ");
				add(msg, sizeof(msg), &at, c->names[i]);
			}
		if (c->also)
			add(msg, sizeof(msg), &at, c->also);
	}
	usage_error("%s", msg);
}

int choose(const struct choices *c, const char *word, const char *ctx)
{
	int rc = choice_find(c, word);

	if (rc >= 0)
		return rc;
	choice_usage_error(c, word, ctx);
	return -1;
}
