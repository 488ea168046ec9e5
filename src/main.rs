//! The `redline` binary: everything lives in `redline::cli`, but for the choice of allocator,
//! which has to be made before anything is allocated.

use std::alloc::{GlobalAlloc, Layout, System};
#[cfg(all(target_os = "linux", target_env = "gnu"))]
use std::ffi::{c_char, c_int};
use std::sync::atomic::{AtomicU8, Ordering};

/// mimalloc for the commands that run the review screen: syntax colouring allocates for every
/// line it parses, and mimalloc makes it about a fifth faster (README, "Syntax colour"; the
/// benches that measure it use mimalloc too). The system's for the one-shot commands (`apply`,
/// `parse`, `sessions`): mimalloc's start-up and first pages cost about a tenth of an `apply`
/// (README, "Performance"), which runs once per reply.
#[global_allocator]
static ALLOCATOR: Chosen = Chosen;

fn main() -> std::process::ExitCode {
    redline::cli::main()
}

/// Chooses the allocator from the command line before anything is allocated: glibc runs the
/// functions in `.init_array` before `main`, with the arguments (the standard library reads
/// them the same way), and the standard library allocates before `main` itself.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[unsafe(link_section = ".init_array")]
static CHOOSE: extern "C" fn(c_int, *const *const c_char, *const *const c_char) = choose;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn choose(argc: c_int, argv: *const *const c_char, _env: *const *const c_char) {
    if argc < 2 || argv.is_null() {
        return;
    }
    // SAFETY: glibc passes `argc` valid, NUL-terminated arguments.
    let first = unsafe { *argv.add(1) };
    if first.is_null() {
        return;
    }
    // SAFETY: as above.
    let command = unsafe { std::ffi::CStr::from_ptr(first) }.to_bytes();
    if one_shot(command) {
        Chosen::use_system();
    }
}

/// Whether a command runs once and exits (an option before it says no: mimalloc, as before).
fn one_shot(command: &[u8]) -> bool {
    matches!(command, b"apply" | b"parse" | b"sessions")
}

/// The allocator, chosen once: at the first allocation (mimalloc) unless [`Chosen::use_system`]
/// came first. Every block is freed by the allocator that gave it, because the choice never
/// changes after the first block.
struct Chosen;

const UNDECIDED: u8 = 0;
const MIMALLOC: u8 = 1;
const SYSTEM: u8 = 2;

static STATE: AtomicU8 = AtomicU8::new(UNDECIDED);

impl Chosen {
    /// Use the system's allocator, if nothing was allocated yet.
    fn use_system() -> bool {
        STATE.compare_exchange(UNDECIDED, SYSTEM, Ordering::AcqRel, Ordering::Acquire).is_ok()
    }

    #[inline]
    fn system() -> bool {
        match STATE.load(Ordering::Acquire) {
            UNDECIDED => {
                let r = STATE.compare_exchange(
                    UNDECIDED,
                    MIMALLOC,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                );
                r == Err(SYSTEM)
            }
            s => s == SYSTEM,
        }
    }
}

// SAFETY: every call is passed on unchanged to one of two allocators, the same one for the whole
// life of the process (see `Chosen`), so each block is freed and resized by the one that gave it.
unsafe impl GlobalAlloc for Chosen {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        unsafe {
            if Chosen::system() { System.alloc(layout) } else { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        unsafe {
            if Chosen::system() {
                System.alloc_zeroed(layout)
            } else {
                mimalloc::MiMalloc.alloc_zeroed(layout)
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above; `ptr` came from the same allocator.
        unsafe {
            if Chosen::system() {
                System.dealloc(ptr, layout)
            } else {
                mimalloc::MiMalloc.dealloc(ptr, layout)
            }
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        unsafe {
            if Chosen::system() {
                System.realloc(ptr, layout, new_size)
            } else {
                mimalloc::MiMalloc.realloc(ptr, layout, new_size)
            }
        }
    }
}
