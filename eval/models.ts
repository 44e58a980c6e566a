import { readFile, writeFile } from "node:fs/promises";
import type { Fetch } from "#controller/http/faults";
import { anthropicModel } from "#controller/model/anthropic";
import { bedrockModel } from "#controller/model/bedrock";
import { openaiModel } from "#controller/model/openai";
import {
  isRecordingProvider,
  type RecordingProvider,
  recordedModel,
  recordingFetch,
  recordingProviders,
  recordResponses,
} from "#controller/model/recorded";
import { scriptedModel } from "#controller/model/scripted";
import type { ModelAdapter } from "#controller/model/types";
import { localFiles, missingAwsCredentials } from "./aws-credentials.ts";
import type { LoadedCase } from "./load-cases.ts";

/**
 * The model a run uses (`--model`): scripted (each case's own script), recorded:<file> (saved provider
 * responses, replayed through the real SDKs), anthropic:<model>, openai:<model> or bedrock:<modelId> (live).
 */
export type ModelSpec = { kind: "scripted" } | { kind: "recorded"; file: string } | LiveModelSpec;

export type LiveModelSpec = { kind: "anthropic" | "openai" | "bedrock"; model: string };

const liveKinds: readonly string[] = ["anthropic", "openai", "bedrock"] satisfies LiveModelSpec["kind"][];

export class ModelSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelSpecError";
  }
}

export function parseModelSpec(spec: string): ModelSpec {
  if (spec === "scripted") return { kind: "scripted" };
  const colon = spec.indexOf(":");
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const rest = colon < 0 ? "" : spec.slice(colon + 1);
  if ((kind === "recorded" || liveKinds.includes(kind)) && rest === "") {
    throw new ModelSpecError(
      `--model ${kind} needs ${kind === "recorded" ? "a file: recorded:<file.json>" : kind === "bedrock" ? "a model or inference profile id: bedrock:<modelId>" : `a model: ${kind}:<model id>`}.`,
    );
  }
  if (kind === "recorded") return { kind, file: rest };
  if (liveKinds.includes(kind)) return { kind: kind as LiveModelSpec["kind"], model: rest };
  throw new ModelSpecError(
    `--model is scripted, recorded:<file>, anthropic:<model>, openai:<model> or bedrock:<modelId>, not ${JSON.stringify(spec)}.`,
  );
}

export const isModelRun = (spec: ModelSpec) => spec.kind !== "scripted";

/** A model answering now (and costing): not scripted, not a recording of answers given to other tools. */
export const isLiveModel = (spec: ModelSpec): spec is LiveModelSpec => liveKinds.includes(spec.kind);

/** What a live model needs and lacks, if anything: say which, and exit 2. Bedrock's chain is checked without calling AWS. */
export function missingCredential(spec: ModelSpec, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (spec.kind === "anthropic" && !env.ANTHROPIC_API_KEY) return "--model anthropic:… needs ANTHROPIC_API_KEY, which is not set.";
  if (spec.kind === "openai" && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
    return "--model openai:… needs OPENAI_API_KEY (or OPENAI_BASE_URL, for a compatible server such as a local Ollama), and neither is set.";
  }
  if (spec.kind === "bedrock") return missingAwsCredentials({ env, readFile: localFiles });
  return undefined;
}

/**
 * A recording of a whole run, for `recorded:<file>`: each case's model responses in the provider's own wire
 * format, for every trial alike (a list of responses) or per trial (a list of such lists).
 */
export interface RunRecording {
  provider: RecordingProvider;
  model: string;
  cases: Record<string, unknown[]>;
}

export async function readRunRecording(file: string): Promise<RunRecording> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new ModelSpecError(`Cannot read the recording ${file}: ${(error as Error).message}`);
  }
  const r = json as Partial<RunRecording>;
  if (!isRecordingProvider(r.provider) || typeof r.model !== "string" || r.cases === null || typeof r.cases !== "object") {
    const providers = recordingProviders.map((p) => `"${p}"`).join("|");
    throw new ModelSpecError(
      `${file} is not a run recording: it must be {"provider": ${providers}, "model": "…", "cases": {"<case id>": [<response>, …] or [[<trial 1 responses>], …]}}.`,
    );
  }
  return r as RunRecording;
}

/** Makes each case trial's model; a live run can keep what the provider answered, to replay later. */
export interface ModelSource {
  /** For the report and the baseline, e.g. "scripted", "anthropic:claude-…". */
  name: string;
  make(loaded: LoadedCase, trial: number): ModelAdapter & { used?: number };
  /** Writes the responses of a live run as a recording (`--record`). */
  saveRecording?(file: string): Promise<void>;
}

/**
 * `transport`: the fetch a live model's SDK uses, per case trial — the network by default; tests serve the
 * provider's recorded wire-format answers through it, so a "live" run is exercised end to end without one.
 */
export async function modelSource(
  spec: ModelSpec,
  options: { record?: boolean; transport?: (caseId: string, trial: number) => Fetch } = {},
): Promise<ModelSource> {
  switch (spec.kind) {
    case "scripted":
      return {
        name: "scripted",
        make: (loaded) => {
          if (!loaded.case.script) throw new Error(`case ${loaded.case.id} has no script, so it cannot run with the scripted model`);
          // As a function: a case may script a model that proposes a tool that does not exist, which the list form refuses.
          const steps = loaded.case.script;
          return scriptedModel((_request, index) => steps[index]);
        },
      };
    case "recorded": {
      const recording = await readRunRecording(spec.file);
      return {
        name: `${recording.provider}:${recording.model}`,
        make: (loaded, trial) => {
          const saved = recording.cases[loaded.case.id];
          if (!saved) throw new Error(`the recording ${spec.file} has no responses for case ${loaded.case.id}`);
          const perTrial = Array.isArray(saved[0]);
          const responses = perTrial ? (saved[trial - 1] as unknown[] | undefined) : saved;
          if (!responses)
            throw new Error(`the recording ${spec.file} has ${saved.length} trial(s) of case ${loaded.case.id}, not ${trial}`);
          return recordedModel({ provider: recording.provider, model: recording.model, responses });
        },
      };
    }
    case "anthropic":
    case "openai":
    case "bedrock": {
      const saved: Record<string, unknown[][]> = {};
      const sink = (loaded: LoadedCase, trial: number): unknown[] | undefined => {
        if (!options.record) return undefined;
        saved[loaded.case.id] ??= [];
        const trials = saved[loaded.case.id]!;
        const responses: unknown[] = [];
        trials[trial - 1] = responses;
        return responses;
      };
      // Recording a Bedrock run needs the client itself (SDK middleware reads the wire response), so it is made here.
      const bedrock = spec.kind === "bedrock" && options.record ? await import("@aws-sdk/client-bedrock-runtime") : undefined;
      return {
        name: `${spec.kind}:${spec.model}`,
        make: (loaded, trial) => {
          const responses = sink(loaded, trial);
          if (spec.kind === "bedrock") {
            if (!responses || !bedrock) return bedrockModel({ modelId: spec.model });
            const client = new bedrock.BedrockRuntimeClient({});
            recordResponses(client, responses);
            return bedrockModel({ modelId: spec.model, client });
          }
          // The network, or (tests) a transport serving recorded wire-format answers; recorded when asked.
          const base = options.transport?.(loaded.case.id, trial);
          const fetch: Fetch | undefined = responses ? recordingFetch(base ?? globalThis.fetch, responses) : base;
          return spec.kind === "anthropic"
            ? anthropicModel({ model: spec.model, ...(fetch ? { fetch } : {}) })
            : openaiModel({ model: spec.model, ...(fetch ? { fetch } : {}) });
        },
        async saveRecording(file) {
          const recording: RunRecording = { provider: spec.kind, model: spec.model, cases: saved };
          await writeFile(file, `${JSON.stringify(recording, null, 2)}\n`);
        },
      };
    }
  }
}
