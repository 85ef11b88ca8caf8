#!/usr/bin/env python3
"""A vision-language model from Hugging Face transformers behind chartstress's
`command` adapter.

    chartstress run SUITE --adapter command --name qwen2vl \
        --cmd "python3 examples/transformers_model.py Qwen/Qwen2-VL-2B-Instruct"

Needs `pip install torch transformers pillow accelerate`. The model is loaded
once per worker; each stdin line is one request, each stdout line one
response. Anything else the libraries print goes to stderr, which chartstress
stores in SUITE/runs/RUN/worker-K.stderr.log (stdout is reserved for answers).
"""
import base64
import io
import json
import sys


def main():
    model_id = sys.argv[1] if len(sys.argv) > 1 else "Qwen/Qwen2-VL-2B-Instruct"
    max_new_tokens = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    # Keep library chatter off stdout.
    real_stdout = sys.stdout
    sys.stdout = sys.stderr

    import torch
    from PIL import Image
    from transformers import AutoModelForVision2Seq, AutoProcessor

    processor = AutoProcessor.from_pretrained(model_id)
    model = AutoModelForVision2Seq.from_pretrained(
        model_id, torch_dtype="auto", device_map="auto"
    )
    model.eval()

    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            image = Image.open(io.BytesIO(base64.b64decode(req["image_png_base64"]))).convert("RGB")
            messages = [{
                "role": "user",
                "content": [{"type": "image"}, {"type": "text", "text": req["prompt"]}],
            }]
            text = processor.apply_chat_template(messages, add_generation_prompt=True)
            inputs = processor(text=[text], images=[image], return_tensors="pt").to(model.device)
            with torch.no_grad():
                out = model.generate(**inputs, max_new_tokens=max_new_tokens, do_sample=False)
            new_tokens = out[0][inputs["input_ids"].shape[1]:]
            answer = processor.decode(new_tokens, skip_special_tokens=True)
            resp = {
                "id": req["id"],
                "text": answer,
                "usage": {
                    "prompt_tokens": int(inputs["input_ids"].shape[1]),
                    "completion_tokens": int(new_tokens.shape[0]),
                },
            }
        except Exception as exc:  # one bad item must not stop the worker
            resp = {"id": req["id"], "error": f"{type(exc).__name__}: {exc}"}
        real_stdout.write(json.dumps(resp) + "\n")
        real_stdout.flush()


if __name__ == "__main__":
    main()
