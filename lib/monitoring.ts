import { Duration } from "aws-cdk-lib";
import {
  Alarm,
  AlarmStatusWidget,
  AlarmWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  SearchExpression,
  TextWidget,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";
import type { DeployedTool } from "#deploy/tool-functions";
import { metricNames, metricsNamespace } from "#runtime/observability";
import type { HttpApi } from "aws-cdk-lib/aws-apigatewayv2";
import type { ToolFunction } from "#lib/tool-function";

/**
 * The dimension sets the functions' EMF lines carry (functions/runtime/observability.ts: the metric's own
 * dimensions plus the `service` Powertools adds). A CloudWatch metric is its name and its full dimension set, so
 * every metric, SEARCH and Metrics Insights query here names the whole set.
 */
export const emittedDimensions = {
  [metricNames.outcome]: ["service", "tool", "outcome"],
  [metricNames.replayed]: ["service", "tool"],
  [metricNames.inProgress]: ["service", "tool"],
  [metricNames.versionConflict]: ["service", "tool"],
  [metricNames.statusLookup]: ["service", "answer"],
  [metricNames.limitRefused]: ["service", "tool", "limit"],
  [metricNames.unconfirmedChange]: ["service", "tool"],
} as const satisfies Record<(typeof metricNames)[keyof typeof metricNames], readonly string[]>;

const period = Duration.minutes(5);

/** One business metric of this stage, with every dimension value known. */
export function businessMetric(
  serviceName: string,
  name: keyof typeof emittedDimensions,
  dimensions: Record<string, string>,
  label?: string,
): Metric {
  const expected = emittedDimensions[name].filter((d) => d !== "service");
  if (Object.keys(dimensions).sort().join() !== [...expected].sort().join()) {
    throw new Error(
      `${name} is emitted with the dimensions ${emittedDimensions[name].join(", ")}; got ${Object.keys(dimensions).join(", ")} besides service.`,
    );
  }
  return new Metric({
    namespace: metricsNamespace,
    metricName: name,
    dimensionsMap: { service: serviceName, ...dimensions },
    statistic: "Sum",
    period,
    ...(label ? { label } : {}),
  });
}

/** A search series' label from its dimensions' values: CloudWatch fills in each `${PROP('Dim.<name>')}`. */
const dimensionLabel = (...names: string[]) => names.map((name) => `\${PROP('Dim.${name}')}`).join(" ");

/** Every series of a business metric of this stage, whatever its dimension values (tools, outcome codes, limits, answers). */
export function businessSearch(serviceName: string, name: keyof typeof emittedDimensions, label: string): SearchExpression {
  const schema = [metricsNamespace, ...emittedDimensions[name]].join(",");
  return new SearchExpression({
    expression: `SEARCH('{${schema}} MetricName="${name}" service="${serviceName}"', 'Sum', ${period.toSeconds()})`,
    label,
    period,
  });
}

/** INTERNAL outcomes of every tool of this stage, as one series: a Metrics Insights query (one per alarm at most). */
export function internalOutcomesQuery(serviceName: string): string {
  return `SELECT SUM(${metricNames.outcome}) FROM SCHEMA(${[metricsNamespace, ...emittedDimensions[metricNames.outcome]].join(", ")}) WHERE service = '${serviceName}' AND outcome = 'INTERNAL'`;
}

/** CloudWatch reads at most 10 metrics in one alarm. */
const metricsPerAlarm = 10;

/** What the dashboard reads of an HTTP API: its metrics, and whom it serves. */
export interface MonitoredApi {
  audience: "customers" | "staff" | "sellers" | "all";
  api: HttpApi;
}

export interface OperationsProps {
  stage: string;
  serviceName: string;
  alarmTopic: ITopic;
  tools: readonly DeployedTool[];
  toolFunctions: ReadonlyMap<string, ToolFunction>;
  serviceFunctions: ReadonlyMap<string, ToolFunction>;
  /** The stack's HTTP APIs (ApiStack's ToolsHttpApi entries), each with its audience for the labels. */
  apis: readonly MonitoredApi[];
  tables: { orders: ITable; idempotency: ITable };
  /** The stack's other alarms, for the dashboard's status panel. */
  alarms: readonly Alarm[];
}

/**
 * What an operator watches: the two alarms on outcomes nobody knows yet (the reconciliation path), and the
 * `OrderTools-<stage>` dashboard — calls, errors and p50/p99 duration per function, the APIs, throttles and refusals,
 * business outcomes, replays, status lookups, and DynamoDB consumed capacity. docs/operations.md is its runbook.
 */
export class Operations extends Construct {
  readonly dashboard: Dashboard;
  /** INTERNAL answers as a share of the API's requests. */
  readonly internalRateAlarm: Alarm;
  /** Changes whose outcome the caller does not know: INTERNAL on a changing tool, and lookups answered pending or not_found. */
  readonly unknownOutcomesAlarm: Alarm;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const { serviceName, stage } = props;
    const alarm = (alarmId: string, description: string, metric: IMetric, threshold: number): Alarm => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(new SnsAction(props.alarmTopic));
      return created;
    };

    // INTERNAL is "outcome unknown" (contract §3): the caller must reconcile. Counted over every tool by one Metrics
    // Insights query, so a new tool is included with no edit, against the requests the API(s) received (the
    // catalogue, OpenAPI and requests the authorizer refused included, so the rate is if anything understated).
    // At least 3 in a period, so one failure in a quiet five minutes does not page anyone.
    const requests = Object.fromEntries(props.apis.map((api, i) => [`requests${i}`, api.api.metricCount({ period, statistic: "Sum" })]));
    const total = Object.keys(requests)
      .map((k) => `FILL(${k}, 0)`)
      .join(" + ");
    const internalRate = new MathExpression({
      expression: `IF((${total}) > 0 AND FILL(internal, 0) >= 3, 100 * FILL(internal, 0) / (${total}), 0)`,
      usingMetrics: {
        internal: new MathExpression({
          expression: internalOutcomesQuery(serviceName),
          usingMetrics: {},
          period,
          label: "INTERNAL outcomes",
        }),
        ...requests,
      },
      period,
      label: "INTERNAL outcomes (% of requests)",
    });
    this.internalRateAlarm = alarm(
      "InternalRate",
      `order-tools (${stage}): at least 1% of requests (and at least 3) answered INTERNAL, outcome unknown, in 2 of the last 3 five-minute periods. Callers must reconcile with get_operation_status. Runbook: docs/operations.md, "InternalRate".`,
      internalRate,
      1,
    );

    // The reconciliation path, from both ends: a change answered INTERNAL, and a lookup that could not yet say
    // what became of an operation. A few are normal (a client's own timeout); a sustained rise is not.
    const changing = props.tools.filter((t) => t.kind === "change");
    if (changing.length + 2 > metricsPerAlarm) {
      throw new Error(
        `The UnknownOutcomes alarm reads one metric per changing tool plus two, and CloudWatch allows ${metricsPerAlarm} per alarm; with ${changing.length} changing tools, count their INTERNAL outcomes with a Metrics Insights query instead.`,
      );
    }
    const unknown: Record<string, IMetric> = {
      ...Object.fromEntries(
        changing.map((t, i) => [`internal${i}`, businessMetric(serviceName, metricNames.outcome, { tool: t.name, outcome: "INTERNAL" })]),
      ),
      pending: businessMetric(serviceName, metricNames.statusLookup, { answer: "pending" }),
      notFound: businessMetric(serviceName, metricNames.statusLookup, { answer: "not_found" }),
    };
    this.unknownOutcomesAlarm = alarm(
      "UnknownOutcomes",
      `order-tools (${stage}): at least 5 outcomes unknown to their callers (INTERNAL on a changing tool, or get_operation_status answering pending or not_found) in 2 of the last 3 five-minute periods. Runbook: docs/operations.md, "UnknownOutcomes".`,
      new MathExpression({
        expression: Object.keys(unknown)
          .map((k) => `FILL(${k}, 0)`)
          .join(" + "),
        usingMetrics: unknown,
        period,
        label: "Outcomes unknown to callers",
      }),
      5,
    );

    this.dashboard = new Dashboard(this, "Dashboard", { dashboardName: `OrderTools-${stage}`, defaultInterval: Duration.hours(3) });
    const functions = [...props.toolFunctions, ...props.serviceFunctions].map(([name, fn]) => ({ name, fn: fn.function }));
    const perFunction = (title: string, metric: (fn: (typeof functions)[number]) => IMetric) =>
      new GraphWidget({ title, width: 12, height: 6, left: functions.map(metric) });
    const graph = (title: string, left: IMetric[], options: { width?: number; stacked?: boolean } = {}) =>
      new GraphWidget({ title, width: options.width ?? 8, height: 6, left, stacked: options.stacked ?? false });
    const apiLabel = (api: MonitoredApi) =>
      api.audience === "staff"
        ? "staff API"
        : api.audience === "sellers"
          ? "sellers' API"
          : api.audience === "customers"
            ? "customers' API"
            : "API";
    const tables = [
      ["orders", props.tables.orders],
      ["idempotency", props.tables.idempotency],
    ] as const;

    this.dashboard.addWidgets(
      new TextWidget({
        width: 24,
        height: 2,
        markdown: `# order-tools (${stage})\nCustom metrics: namespace \`${metricsNamespace}\`, \`service = ${serviceName}\`. What each alarm means and what to look at first: \`docs/operations.md\`. The data stack's DynamoDB SystemErrors alarms are on its own page of alarms.`,
      }),
    );
    this.dashboard.addWidgets(
      perFunction("Calls per function (invocations)", ({ name, fn }) => fn.metricInvocations({ period, statistic: "Sum", label: name })),
      perFunction("Errors per function (uncaught or timed out)", ({ name, fn }) =>
        fn.metricErrors({ period, statistic: "Sum", label: name }),
      ),
    );
    this.dashboard.addWidgets(
      perFunction("Duration p50 per function (ms)", ({ name, fn }) => fn.metricDuration({ period, statistic: "p50", label: name })),
      perFunction("Duration p99 per function (ms)", ({ name, fn }) => fn.metricDuration({ period, statistic: "p99", label: name })),
    );
    this.dashboard.addWidgets(
      graph(
        "Requests, 4xx and 5xx per API",
        props.apis.flatMap((api) => [
          api.api.metricCount({ period, statistic: "Sum", label: `${apiLabel(api)} requests` }),
          api.api.metricClientError({ period, statistic: "Sum", label: `${apiLabel(api)} 4xx` }),
          api.api.metricServerError({ period, statistic: "Sum", label: `${apiLabel(api)} 5xx` }),
        ]),
      ),
      graph(
        "API latency p50 / p99 (ms)",
        props.apis.flatMap((api) => [
          api.api.metricLatency({ period, statistic: "p50", label: `${apiLabel(api)} p50` }),
          api.api.metricLatency({ period, statistic: "p99", label: `${apiLabel(api)} p99` }),
        ]),
      ),
      new AlarmWidget({ title: "INTERNAL outcomes (% of requests)", width: 8, height: 6, alarm: this.internalRateAlarm }),
    );
    this.dashboard.addWidgets(
      graph(
        "Throttled invocations per function (account concurrency)",
        functions.map(({ name, fn }) => fn.metricThrottles({ period, statistic: "Sum", label: name })),
      ),
      graph("Refused by the request budget and hourly caps (429), by tool and limit", [
        businessSearch(serviceName, metricNames.limitRefused, dimensionLabel("tool", "limit")),
      ]),
      graph("Changes over MCP with no person's confirmation (unconfirmedChanges allow), by tool", [
        businessSearch(serviceName, metricNames.unconfirmedChange, dimensionLabel("tool")),
      ]),
      graph(
        "DynamoDB throttle events per table",
        tables.flatMap(([name, table]) => [
          table.metric("ReadThrottleEvents", { period, statistic: "Sum", label: `${name} reads` }),
          table.metric("WriteThrottleEvents", { period, statistic: "Sum", label: `${name} writes` }),
        ]),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        "Business outcomes by tool and outcome",
        [businessSearch(serviceName, metricNames.outcome, dimensionLabel("tool", "outcome"))],
        { width: 24, stacked: true },
      ),
    );
    this.dashboard.addWidgets(
      graph("Replays (Idempotent-Replayed: true) by tool", [businessSearch(serviceName, metricNames.replayed, dimensionLabel("tool"))]),
      graph("Stale proposals (VERSION_CONFLICT) by tool", [
        businessSearch(serviceName, metricNames.versionConflict, dimensionLabel("tool")),
      ]),
      graph("Same operation still running (OPERATION_IN_PROGRESS) by tool", [
        businessSearch(serviceName, metricNames.inProgress, dimensionLabel("tool")),
      ]),
    );
    this.dashboard.addWidgets(
      graph("get_operation_status answers", [businessSearch(serviceName, metricNames.statusLookup, dimensionLabel("answer"))]),
      new AlarmWidget({ title: "Outcomes unknown to callers", width: 8, height: 6, alarm: this.unknownOutcomesAlarm }),
      graph("Transaction conflicts, orders table (hot items: pickup slots, stock)", [
        props.tables.orders.metric("TransactionConflict", { period, statistic: "Sum", label: "orders" }),
      ]),
    );
    this.dashboard.addWidgets(
      graph(
        "DynamoDB consumed capacity per table",
        tables.flatMap(([name, table]) => [
          table.metricConsumedReadCapacityUnits({ period, statistic: "Sum", label: `${name} RCU` }),
          table.metricConsumedWriteCapacityUnits({ period, statistic: "Sum", label: `${name} WCU` }),
        ]),
        { width: 12 },
      ),
      graph(
        "DynamoDB consumed capacity per index, orders table",
        ["ConsumedReadCapacityUnits", "ConsumedWriteCapacityUnits"].map(
          (metric) =>
            new SearchExpression({
              expression: `SEARCH('{AWS/DynamoDB,TableName,GlobalSecondaryIndexName} MetricName="${metric}" TableName="${props.tables.orders.tableName}"', 'Sum', ${period.toSeconds()})`,
              label: `\${PROP('Dim.GlobalSecondaryIndexName')} ${metric === "ConsumedReadCapacityUnits" ? "RCU" : "WCU"}`,
              period,
            }),
        ),
        { width: 12 },
      ),
    );
    this.dashboard.addWidgets(
      new AlarmStatusWidget({
        title: "Alarms of the API stack",
        width: 24,
        height: 6,
        alarms: [this.internalRateAlarm, this.unknownOutcomesAlarm, ...props.alarms],
      }),
    );
  }
}
