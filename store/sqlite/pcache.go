//go:build cgo

package sqlite

/*
#include <stdlib.h>

// The declarations of SQLite's page cache interface (sqlite3.h), which is part of its stable
// ABI: https://sqlite.org/c3ref/pcache_methods2.html.
typedef struct sqlite3_pcache sqlite3_pcache;
typedef struct sqlite3_pcache_page { void *pBuf; void *pExtra; } sqlite3_pcache_page;
typedef struct sqlite3_pcache_methods2 {
	int iVersion;
	void *pArg;
	int (*xInit)(void*);
	void (*xShutdown)(void*);
	sqlite3_pcache *(*xCreate)(int szPage, int szExtra, int bPurgeable);
	void (*xCachesize)(sqlite3_pcache*, int nCachesize);
	int (*xPagecount)(sqlite3_pcache*);
	sqlite3_pcache_page *(*xFetch)(sqlite3_pcache*, unsigned key, int createFlag);
	void (*xUnpin)(sqlite3_pcache*, sqlite3_pcache_page*, int discard);
	void (*xRekey)(sqlite3_pcache*, sqlite3_pcache_page*, unsigned oldKey, unsigned newKey);
	void (*xTruncate)(sqlite3_pcache*, unsigned iLimit);
	void (*xDestroy)(sqlite3_pcache*);
	void (*xShrink)(sqlite3_pcache*);
} sqlite3_pcache_methods2;

extern int sqlite3_config(int, ...);

#define SVC_CONFIG_PCACHE2 18
#define SVC_CONFIG_GETPCACHE2 19
// The lock-byte page begins at this offset (SQLite's PENDING_BYTE, changed only by its tests).
#define SVC_PENDING_BYTE 0x40000000

// svcPcache is SQLite's own page cache with one difference. When a B-tree page splits,
// balance_nonroot puts its new pages in key order by swapping page numbers through a spare
// one, the lock-byte page's (262,145 with pages of 4 KiB), which no real page ever has. The
// built-in cache then believes it holds a page that far out, and at the end of every such
// transaction its truncation to the database's size walks its whole hash table instead of the
// few slots past the end: a quarter of a millisecond with the writer's 8,192 pages, at nearly
// every commit of a busy writer. Here the spare number is given, inside the cache, a key just
// past the largest key the cache holds, so the truncation looks only at the slots it must.
typedef struct svcPcache {
	sqlite3_pcache *inner;
	unsigned pending; // the lock-byte page's number at this page size
	unsigned maxKey;  // no key in inner is larger
	unsigned alias;   // while a page is numbered pending: its key in inner; else 0
} svcPcache;

static sqlite3_pcache_methods2 svcInner;

// svcAliased counts the spare numbers given another key, for the tests.
static unsigned long long svcAliased;

static int svcInit(void *arg) { return svcInner.xInit(svcInner.pArg); }

static void svcShutdown(void *arg) {
	if (svcInner.xShutdown) svcInner.xShutdown(svcInner.pArg);
}

static sqlite3_pcache *svcCreate(int szPage, int szExtra, int bPurgeable) {
	svcPcache *c = calloc(1, sizeof *c);
	if (!c) return 0;
	c->inner = svcInner.xCreate(szPage, szExtra, bPurgeable);
	if (!c->inner) {
		free(c);
		return 0;
	}
	c->pending = SVC_PENDING_BYTE / szPage + 1;
	return (sqlite3_pcache *)c;
}

static void svcCachesize(sqlite3_pcache *p, int n) { svcInner.xCachesize(((svcPcache *)p)->inner, n); }

static int svcPagecount(sqlite3_pcache *p) { return svcInner.xPagecount(((svcPcache *)p)->inner); }

static sqlite3_pcache_page *svcFetch(sqlite3_pcache *p, unsigned key, int create) {
	svcPcache *c = (svcPcache *)p;
	if (key == c->pending && c->alias) key = c->alias;
	sqlite3_pcache_page *pg = svcInner.xFetch(c->inner, key, create);
	if (pg && key > c->maxKey) c->maxKey = key;
	return pg;
}

static void svcUnpin(sqlite3_pcache *p, sqlite3_pcache_page *pg, int discard) {
	svcInner.xUnpin(((svcPcache *)p)->inner, pg, discard);
}

static void svcRekey(sqlite3_pcache *p, sqlite3_pcache_page *pg, unsigned oldKey, unsigned newKey) {
	svcPcache *c = (svcPcache *)p;
	if (oldKey == c->pending && c->alias) {
		oldKey = c->alias;
		c->alias = 0;
	}
	if (newKey == c->pending && !c->alias) {
		newKey = c->alias = c->maxKey + 1;
		__atomic_fetch_add(&svcAliased, 1, __ATOMIC_RELAXED);
	}
	if (newKey > c->maxKey) c->maxKey = newKey;
	svcInner.xRekey(c->inner, pg, oldKey, newKey);
}

static void svcTruncate(sqlite3_pcache *p, unsigned limit) {
	svcPcache *c = (svcPcache *)p;
	svcInner.xTruncate(c->inner, limit);
	if (limit > 0 && limit <= c->maxKey) c->maxKey = limit - 1;
}

static void svcDestroy(sqlite3_pcache *p) {
	svcPcache *c = (svcPcache *)p;
	svcInner.xDestroy(c->inner);
	free(c);
}

static void svcShrink(sqlite3_pcache *p) {
	if (svcInner.xShrink) svcInner.xShrink(((svcPcache *)p)->inner);
}

static unsigned long long svcAliasedCount(void) { return __atomic_load_n(&svcAliased, __ATOMIC_RELAXED); }

// svcInstallPcache puts svcPcache in front of SQLite's page cache. It returns SQLite's code:
// not 0 once SQLite has been initialized (a connection was opened already), when the built-in
// cache stays.
static int svcInstallPcache(void) {
	int rc = sqlite3_config(SVC_CONFIG_GETPCACHE2, &svcInner);
	if (rc) return rc;
	static sqlite3_pcache_methods2 m;
	m.iVersion = 1;
	m.xInit = svcInit;
	m.xShutdown = svcShutdown;
	m.xCreate = svcCreate;
	m.xCachesize = svcCachesize;
	m.xPagecount = svcPagecount;
	m.xFetch = svcFetch;
	m.xUnpin = svcUnpin;
	m.xRekey = svcRekey;
	m.xTruncate = svcTruncate;
	m.xDestroy = svcDestroy;
	m.xShrink = svcShrink;
	return sqlite3_config(SVC_CONFIG_PCACHE2, &m);
}
*/
import "C"

// pcacheInstalled tells whether SQLite caches pages through svcPcache (see pcache.go's C code):
// SQLite takes a page cache only before its first connection, so an application that opened a
// SQLite database before this package's init keeps the built-in one.
var pcacheInstalled = C.svcInstallPcache() == 0

// pcacheAliased counts the page splits whose spare page number svcPcache kept out of the way.
func pcacheAliased() uint64 { return uint64(C.svcAliasedCount()) }
