import { describe, expect, it } from "vitest";
import { type AwsCredentialProbe, missingAwsCredentials } from "#eval/aws-credentials";
import { missingCredential, parseModelSpec } from "#eval/models";

/**
 * `--model bedrock:…` checks the AWS SDK's default credential chain from the environment and local files only,
 * before the run: each source the chain would use counts, and what it lacks is named. The files here are given
 * by the probe, so the machine's own ~/.aws and hypervisor never leak in.
 */
const home = "/home/ana";
const probe = (env: NodeJS.ProcessEnv, files: Record<string, string> = {}): AwsCredentialProbe => ({
  env: { HOME: home, ...env },
  readFile: (path) => files[path],
});
const config = `${home}/.aws/config`;
const credentials = `${home}/.aws/credentials`;
const region = { AWS_REGION: "eu-west-1" };

describe("the Bedrock credential check (no network)", () => {
  it("nothing at all: names the variables, the files it read and the other sources", () => {
    expect(missingAwsCredentials(probe({}))).toBe(
      "--model bedrock:… needs AWS credentials, and the default credential chain has none: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set, " +
        `there is no default profile with credentials in ${config} or ${credentials}, and there is no web identity (AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN), ` +
        "container (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) or EC2 instance to ask.",
    );
  });

  it("access keys count only in pairs, and the half that is set is named", () => {
    expect(missingAwsCredentials(probe({ ...region, AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret" }))).toBeUndefined();
    expect(missingAwsCredentials(probe({ ...region, AWS_ACCESS_KEY_ID: "AKIDEXAMPLE" }))).toContain(
      "(AWS_ACCESS_KEY_ID is set, AWS_SECRET_ACCESS_KEY is not)",
    );
    expect(missingAwsCredentials(probe({ ...region, AWS_SECRET_ACCESS_KEY: "secret" }))).toContain(
      "(AWS_SECRET_ACCESS_KEY is set, AWS_ACCESS_KEY_ID is not)",
    );
  });

  it("a profile with credentials counts: keys, SSO or a role, in either file, under AWS_PROFILE's name or default", () => {
    expect(
      missingAwsCredentials(probe(region, { [credentials]: "[default]\naws_access_key_id = AKID\naws_secret_access_key = s\n" })),
    ).toBeUndefined();
    expect(
      missingAwsCredentials(
        probe({ ...region, AWS_PROFILE: "shop" }, { [config]: "[profile shop]\nsso_session = corp\nsso_account_id = 1\n" }),
      ),
    ).toBeUndefined();
    expect(
      missingAwsCredentials(
        probe(
          { AWS_PROFILE: "ops" },
          {
            [config]:
              "[default]\nregion = us-east-1\n\n[profile ops]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = default\nregion = eu-central-1\n",
          },
        ),
      ),
    ).toBeUndefined();
    // The files AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE name replace the ones in ~/.aws.
    expect(
      missingAwsCredentials(
        probe({ ...region, AWS_SHARED_CREDENTIALS_FILE: "/etc/aws/creds" }, { "/etc/aws/creds": "[default]\naws_access_key_id=AKID\n" }),
      ),
    ).toBeUndefined();
  });

  it("a profile that only sets a region, or a name AWS_PROFILE does not find, gives nothing to sign with", () => {
    expect(missingAwsCredentials(probe({}, { [config]: "[default]\nregion = us-east-1\noutput = json\n" }))).toMatch(
      /there is no default profile with credentials/,
    );
    // In the config file a named profile is `[profile shop]`; `[shop]` there is not it.
    expect(missingAwsCredentials(probe({ AWS_PROFILE: "shop" }, { [config]: "[shop]\naws_access_key_id = AKID\n" }))).toContain(
      `AWS_PROFILE=shop names no profile with credentials in ${config} or ${credentials}`,
    );
  });

  it("web identity, container credentials and a Bedrock API key count without any file", () => {
    expect(
      missingAwsCredentials(probe({ ...region, AWS_WEB_IDENTITY_TOKEN_FILE: "/var/run/token", AWS_ROLE_ARN: "arn:aws:iam::1:role/ci" })),
    ).toBeUndefined();
    expect(missingAwsCredentials(probe({ ...region, AWS_WEB_IDENTITY_TOKEN_FILE: "/var/run/token" }))).toMatch(/needs AWS credentials/);
    expect(missingAwsCredentials(probe({ ...region, AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "/v2/credentials/x" }))).toBeUndefined();
    expect(
      missingAwsCredentials(probe({ ...region, AWS_CONTAINER_CREDENTIALS_FULL_URI: "http://169.254.170.23/v1/credentials" })),
    ).toBeUndefined();
    expect(missingAwsCredentials(probe({ ...region, AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key" }))).toBeUndefined();
  });

  it("an EC2 instance (from its hypervisor or DMI files) may answer for credentials and region, unless its metadata is disabled", () => {
    expect(missingAwsCredentials(probe({}, { "/sys/class/dmi/id/sys_vendor": "Amazon EC2\n" }))).toBeUndefined();
    expect(missingAwsCredentials(probe({}, { "/sys/hypervisor/uuid": "ec2e1916-9099-7caf-fd21-012345abcdef\n" }))).toBeUndefined();
    expect(missingAwsCredentials(probe({}, { "/sys/class/dmi/id/sys_vendor": "QEMU\n" }))).toMatch(/needs AWS credentials/);
    expect(missingAwsCredentials(probe({ AWS_EC2_METADATA_DISABLED: "true" }, { "/sys/class/dmi/id/sys_vendor": "Amazon EC2\n" }))).toMatch(
      /needs AWS credentials/,
    );
  });

  it("credentials without a region: names AWS_REGION and the profile it read (the SDK reads no AWS_DEFAULT_REGION)", () => {
    const keys = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret" };
    expect(missingAwsCredentials(probe({ ...keys, AWS_DEFAULT_REGION: "us-east-1" }))).toBe(
      `--model bedrock:… needs a region, and none is set: set AWS_REGION (e.g. us-east-1), or region in the default profile of ${config}.`,
    );
    expect(missingAwsCredentials(probe(keys, { [config]: "[default]\nregion = us-west-2\n" }))).toBeUndefined();
  });

  it("as eval's model check: only bedrock:… asks the chain; its spec needs a model or inference profile id", () => {
    expect(parseModelSpec("bedrock:global.anthropic.claude-sonnet-5-5")).toEqual({
      kind: "bedrock",
      model: "global.anthropic.claude-sonnet-5-5",
    });
    expect(() => parseModelSpec("bedrock")).toThrow("--model bedrock needs a model or inference profile id: bedrock:<modelId>.");
    expect(
      missingCredential(
        { kind: "bedrock", model: "m" },
        { AWS_ACCESS_KEY_ID: "AKID", AWS_SECRET_ACCESS_KEY: "s", AWS_REGION: "eu-west-1" },
      ),
    ).toBeUndefined();
    expect(missingCredential({ kind: "openai", model: "m" }, { AWS_ACCESS_KEY_ID: "AKID" })).toMatch(/OPENAI_API_KEY/);
  });
});
