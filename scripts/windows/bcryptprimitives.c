/* A stand-in for Windows' bcryptprimitives.dll, for running Rust programs
 * under wine 8, which lacks it: Rust's std asks it for random bytes
 * (ProcessPrng, Windows 10 and later). This one asks advapi32's
 * RtlGenRandom (SystemFunction036), which wine has. Test set-up only
 * (scripts/test-windows puts it in the wine prefix); never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
