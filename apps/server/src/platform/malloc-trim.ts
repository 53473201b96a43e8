/**
 * glibc's malloc keeps the memory freed inside its heaps whenever a live block sits above it: a socket read takes a
 * 64 KB buffer and shrinks it to what came, V8 compiles in malloc'ed zones, and the holes left between live blocks
 * are never given back on their own. Idle with the demo the main heap held 47 MB, 19 MB of it in use.
 * `malloc_trim(0)` returns the free pages of every malloc heap (the worker threads' too) to the system.
 *
 * It is called through koffi, a C FFI, loaded on first use. Where the C library has no `malloc_trim` (musl, macOS,
 * Windows) or koffi cannot load, the release is skipped.
 */
type MallocTrim = (pad: number) => number;
let mallocTrim: MallocTrim | null | undefined;

/** Loads `malloc_trim` once; false where there is none. */
export async function loadMallocTrim(): Promise<boolean> {
  if (mallocTrim === undefined) {
    mallocTrim = null;
    if (process.platform === 'linux') {
      try {
        const { default: koffi } = await import('koffi');
        mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as MallocTrim;
      } catch {
        // no koffi binary for this platform, or no malloc_trim in its C library: stays null
      }
    }
  }
  return mallocTrim !== null;
}

/** Returns malloc's free pages to the system (after `loadMallocTrim`); false where it cannot. */
export function releaseMallocFreePages(): boolean {
  if (!mallocTrim) return false;
  mallocTrim(0);
  return true;
}
