#!/usr/bin/env python3
"""A trivial model for chartstress's `command` adapter (used in tests).

Protocol: one JSON request per line on stdin, one JSON response per line on
stdout, in order. It answers with the last word of the question and checks
that the image arrived as PNG bytes.

Test knobs (environment variables):
  ECHO_SLEEP=SECONDS     wait before each answer
  ECHO_CRASH_ON=TEXT     exit(3) when the question contains TEXT, once per
                         marker file ECHO_CRASH_MARK (so a restarted worker succeeds)
  ECHO_CALL_LOG=PATH     append each request id to PATH (one per line)
  ECHO_REPLY=TEXT        reply TEXT instead (\n in TEXT becomes a newline)
  ECHO_REPLY_PROMPT=1    reply with the prompt it was given
"""
import base64
import json
import os
import sys
import time


def main():
    sleep = float(os.environ.get("ECHO_SLEEP", "0"))
    crash_on = os.environ.get("ECHO_CRASH_ON")
    crash_mark = os.environ.get("ECHO_CRASH_MARK")
    call_log = os.environ.get("ECHO_CALL_LOG")
    fixed = os.environ.get("ECHO_REPLY")
    reply_prompt = os.environ.get("ECHO_REPLY_PROMPT") == "1"
    print("echo model ready", file=sys.stderr, flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if call_log:
            with open(call_log, "a") as f:
                f.write(req["id"] + "\n")
        if crash_on and crash_on in req["question"]:
            if not crash_mark or not os.path.exists(crash_mark):
                if crash_mark:
                    open(crash_mark, "w").close()
                print("crashing on purpose on " + req["id"], file=sys.stderr, flush=True)
                sys.exit(3)
        if sleep:
            time.sleep(sleep)
        png = base64.b64decode(req["image_png_base64"])
        if not png.startswith(b"\x89PNG"):
            resp = {"id": req["id"], "error": "image is not a PNG"}
        else:
            words = req["question"].rstrip("?. ").split()
            text = "The answer is " + (words[-1] if words else "nothing") + "."
            if fixed is not None:
                text = fixed.replace("\\n", "\n")
            if reply_prompt:
                text = req["prompt"]
            resp = {
                "id": req["id"],
                "text": text,
                "usage": {"prompt_tokens": len(req["prompt"].split()), "completion_tokens": 4},
            }
        sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
