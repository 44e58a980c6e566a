// oidc-provider ships its in-memory store without types; the local authorization server passes it explicitly.
declare module "oidc-provider/lib/adapters/memory_adapter.js" {
  import type { Adapter } from "oidc-provider";
  export function createMemoryAdapter(clockTolerance?: number): (model: string) => Adapter;
}
