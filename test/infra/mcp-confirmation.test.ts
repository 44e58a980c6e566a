import { App } from "aws-cdk-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOrderTools } from "#lib/app";
import { confirmationKeyEnv, unconfirmedChangesEnv } from "#runtime/mcp-confirmation-settings";
import { deployedConfirmation } from "#service/mcp";
import {
  asList,
  removeSynthesizedOutput,
  resourcesOf,
  serviceFunctionsOf,
  statementsOfRole,
  synthesized,
} from "#test/infra/synthesized-app";

/**
 * The key that signs the MCP endpoint's confirmation questions, and the setting for clients that cannot be asked
 * (contract §2.1), as the API stack deploys them: a KMS HMAC key only the MCP function may use, and only to make
 * and check a MAC; the setting passed from context to the function, and refused at synth when misspelt.
 */

const byDefault = () => synthesized();
const refusing = () => synthesized({ context: { mcpUnconfirmedChanges: "refuse", deletionProtection: "true" } });

beforeAll(() => {
  byDefault();
  refusing();
}, 180_000);
afterAll(removeSynthesizedOutput);

const roleOf = (fn: { properties: Record<string, any> }) => fn.properties.Role["Fn::GetAtt"][0] as string;

describe("the MCP confirmation key", () => {
  it("is one HMAC_256 key for making and checking MACs, gone with the stack after seven days, that grants nothing to anyone", () => {
    for (const synth of [byDefault(), refusing()]) {
      const keys = Object.entries(resourcesOf(synth.apiTemplate, "AWS::KMS::Key"));
      expect(keys).toHaveLength(1);
      const [, key] = keys[0]!;
      expect(key.Properties).toMatchObject({ KeySpec: "HMAC_256", KeyUsage: "GENERATE_VERIFY_MAC", PendingWindowInDays: 7 });
      // Even with deletion protection: a question lives ten minutes, so losing the key loses only the ones then open.
      expect(key.DeletionPolicy).toBe("Delete");
      const statements = key.Properties.KeyPolicy.Statement as Array<Record<string, any>>;
      expect(statements.find((st) => st.Sid === "GrantsOnlyForAwsResources")).toMatchObject({
        Effect: "Deny",
        Action: "kms:CreateGrant",
        Condition: { BoolIfExists: { "kms:GrantIsForAWSResource": "false", "aws:PrincipalIsAWSService": "false" } },
      });
    }
  });

  it("is usable by the MCP function alone, for GenerateMac and VerifyMac only, and named in its environment", () => {
    const { apiTemplate } = byDefault();
    const [keyId] = Object.keys(resourcesOf(apiTemplate, "AWS::KMS::Key"));
    const keyArn = JSON.stringify({ "Fn::GetAtt": [keyId, "Arn"] });
    const mcp = serviceFunctionsOf(apiTemplate).get("mcp")!;
    const roles = Object.keys(resourcesOf(apiTemplate, "AWS::IAM::Role"));
    const naming = roles.filter((role) =>
      statementsOfRole(apiTemplate, role).some((st) => asList(st.Resource as unknown[]).some((r) => JSON.stringify(r) === keyArn)),
    );
    expect(naming).toEqual([roleOf(mcp)]);
    const onKey = statementsOfRole(apiTemplate, roleOf(mcp)).filter((st) =>
      asList(st.Resource as unknown[]).some((r) => JSON.stringify(r) === keyArn),
    );
    expect(onKey).toEqual([{ Effect: "Allow", Action: ["kms:GenerateMac", "kms:VerifyMac"], Resource: { "Fn::GetAtt": [keyId, "Arn"] } }]);
    for (const role of roles)
      for (const st of statementsOfRole(apiTemplate, role))
        expect(
          asList(st.Action).filter((a) => a.startsWith("kms:") && /\*/.test(a)),
          role,
        ).toEqual([]);
    expect(mcp.properties.Environment.Variables[confirmationKeyEnv]).toEqual({ "Fn::GetAtt": [keyId, "Arn"] });
  });
});

describe("context mcpUnconfirmedChanges", () => {
  const env = (synth: ReturnType<typeof synthesized>) => serviceFunctionsOf(synth.apiTemplate).get("mcp")!.properties.Environment.Variables;

  it("is allow unless set, and reaches the MCP function, which reads it as the setting", () => {
    expect(env(byDefault())[unconfirmedChangesEnv]).toBe("allow");
    expect(env(refusing())[unconfirmedChangesEnv]).toBe("refuse");
    expect(deployedConfirmation({ [unconfirmedChangesEnv]: env(refusing())[unconfirmedChangesEnv] }).unconfirmedChanges).toBe("refuse");
    expect(deployedConfirmation({}).unconfirmedChanges).toBe("allow");
  });

  it("fails the synth when misspelt, naming what it may be", () => {
    const build = (value: unknown) => () =>
      buildOrderTools(new App({ context: { "aws:cdk:bundling-stacks": [], controlTowerChecks: "false", mcpUnconfirmedChanges: value } }));
    expect(build("refused")).toThrow(
      /^Context mcpUnconfirmedChanges is "refused"; it must be one of allow, refuse: allow makes a change a client cannot confirm as before, refuse answers it CONFIRMATION_REQUIRED\.$/,
    );
    expect(build(true)).toThrow(/^Context mcpUnconfirmedChanges must be one of allow, refuse, not true\.$/);
    expect(build("refuse")).not.toThrow();
  });

  it("without its key the function can still read, and a change fails saying the key is missing rather than going unconfirmed", async () => {
    const { key } = deployedConfirmation({});
    await expect(key!.mac(new Uint8Array([1]))).rejects.toThrow(
      /ORDER_TOOLS_MCP_CONFIRMATION_KEY is not set, so no change can be confirmed/,
    );
  });
});
