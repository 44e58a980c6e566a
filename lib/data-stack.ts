import { Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { AttributeType, BillingMode, Operation, ProjectionType, Table } from "aws-cdk-lib/aws-dynamodb";
import { Topic } from "aws-cdk-lib/aws-sns";
import type { Construct } from "constructs";
import { type IndexDesign, type TableDesign, idempotencyTable, ordersTable } from "#store/table-design";

export interface DataStackProps extends StackProps {
  /** Table deletion protection and RETAIN on stack deletion; off only for throw-away stages. */
  deletionProtection: boolean;
  alarmTopicArn?: string;
}

/** The operations whose DynamoDB SystemErrors the alarms add up (at most 10 metrics fit one alarm expression). */
const alarmedOperations = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.BATCH_WRITE_ITEM,
];

function projectionOf(index: IndexDesign): { projectionType: ProjectionType; nonKeyAttributes?: string[] } {
  if (index.projection === "ALL") return { projectionType: ProjectionType.ALL };
  if (index.projection === "KEYS_ONLY") return { projectionType: ProjectionType.KEYS_ONLY };
  return { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] };
}

/**
 * The stateful half: both tables, built from `functions/store/table-design.ts` so the deployed keys, indexes
 * and TTL attributes are the ones the code and tests use. On-demand, point-in-time recovery, deletion
 * protection, and an alarm on DynamoDB's own errors for each table.
 */
export class DataStack extends Stack {
  readonly ordersTable: Table;
  readonly idempotencyTable: Table;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const alarmTopic = props.alarmTopicArn ? Topic.fromTopicArn(this, "AlarmTopic", props.alarmTopicArn) : undefined;

    const build = (design: TableDesign, purpose: string): Table => {
      // Every key attribute in the design is a string (ids, `TYPE#id` keys, ISO timestamps), hence STRING throughout.
      const table = new Table(this, design.id, {
        partitionKey: { name: design.partitionKey, type: AttributeType.STRING },
        ...(design.sortKey ? { sortKey: { name: design.sortKey, type: AttributeType.STRING } } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: props.deletionProtection,
        ...(design.timeToLiveAttribute ? { timeToLiveAttribute: design.timeToLiveAttribute } : {}),
        removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      for (const index of design.indexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          ...(index.sortKey ? { sortKey: { name: index.sortKey, type: AttributeType.STRING } } : {}),
          ...projectionOf(index),
        });
      }
      const alarm = new Alarm(this, `${design.id}SystemErrors`, {
        alarmDescription: `DynamoDB returned HTTP 500s for the ${purpose} table: retries may be failing; check the AWS Health dashboard.`,
        metric: table.metricSystemErrorsForOperations({ operations: alarmedOperations, period: Duration.minutes(5) }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (alarmTopic) alarm.addAlarmAction(new SnsAction(alarmTopic));
      return table;
    };

    this.ordersTable = build(ordersTable, "orders");
    this.idempotencyTable = build(idempotencyTable, "idempotency");
  }
}
