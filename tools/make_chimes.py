"""Write the display's chimes (issue 29) to static/sounds/: small mono WAV files, 8 kHz,
8-bit, made here from sums of bell-like partials so that no sound file of unknown origin
ships with the app. Run again after changing a chime: ``python tools/make_chimes.py``.

- ``chime.wav``: a level starts, and the "Test sound" button: two tones up (E5, C6).
- ``break.wav``: a break starts: three soft tones down (G5, E5, C5).
- ``attention.wav``: one minute left, and the director's announcements: the three-tone
  "attention" chime of a public address (C5, E5, G5, then C6 held).
"""

from __future__ import annotations

import math
import wave
from pathlib import Path

RATE = 8000
OUT = Path(__file__).resolve().parents[1] / "static" / "sounds"
# Partials of a soft bell: (frequency ratio, loudness, decay per second).
PARTIALS = ((1.0, 1.0, 3.2), (2.0, 0.35, 5.0), (3.0, 0.12, 7.5), (4.2, 0.05, 10.0))

C5, E5, G5, C6 = 523.25, 659.26, 783.99, 1046.5


def bell(notes: list[tuple[float, float, float]], length: float, volume: float = 0.8) -> bytes:
    """``notes``: (start in seconds, frequency, loudness); 8-bit unsigned samples."""
    n = int(length * RATE)
    mix = [0.0] * n
    for start, freq, loud in notes:
        first = int(start * RATE)
        for i in range(first, n):
            t = (i - first) / RATE
            attack = min(1.0, t / 0.006)
            value = 0.0
            for ratio, amp, decay in PARTIALS:
                if freq * ratio < RATE / 2:
                    value += amp * math.exp(-decay * t) * math.sin(2 * math.pi * freq * ratio * t)
            mix[i] += loud * attack * value
    peak = max(abs(v) for v in mix) or 1.0
    fade = int(0.05 * RATE)  # the last 50 ms fade to silence: no click at the end
    out = bytearray()
    for i, v in enumerate(mix):
        if i >= n - fade:
            v *= (n - i) / fade
        out.append(max(0, min(255, round(128 + 127 * volume * v / peak))))
    return bytes(out)


CHIMES = {
    "chime.wav": (bell([(0.0, E5, 1.0), (0.38, C6, 0.9)], 1.3)),
    "break.wav": (bell([(0.0, G5, 0.9), (0.4, E5, 0.9), (0.8, C5, 1.0)], 1.7)),
    "attention.wav": (
        bell([(0.0, C5, 0.8), (0.22, E5, 0.8), (0.44, G5, 0.8), (0.66, C6, 1.0)], 1.3)
    ),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, frames in CHIMES.items():
        with wave.open(str(OUT / name), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(1)
            w.setframerate(RATE)
            w.writeframes(frames)
        print(f"{OUT / name}: {len(frames) / RATE:.2f} s, {(OUT / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
