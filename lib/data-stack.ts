import { Aws, Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { AttributeType, BillingMode, Operation, ProjectionType, Table, TableEncryption } from "aws-cdk-lib/aws-dynamodb";
import { AnyPrincipal, Effect, PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import { type ITopic, Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import {
  type IndexDesign,
  type TableDesign,
  idempotencyTable,
  maxProjectedAttributes,
  ordersTable,
  ordersTableAt,
  projectedAttributes,
} from "#store/table-design";

export interface DataStackProps extends StackProps {
  /** Table deletion protection and RETAIN on stack deletion; off only for throw-away stages. */
  deletionProtection: boolean;
  /** A step of moving the orders table's indexes to the summary ones (`ordersTableAt`); absent: as designed now. */
  orderIndexStep?: number;
  /** An SNS topic of your own for every alarm; without it this stack creates one. */
  alarmTopicArn?: string;
  /** Subscribed by email to the topic this stack creates. */
  alarmEmails?: string[];
  /** One customer-managed key for the tables, the alarm topic and (in the API stack) every log group. */
  customerManagedKey?: boolean;
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
 * protection, encryption under a KMS key whose use CloudTrail records, and an alarm on DynamoDB's own errors
 * for each table. It also holds what outlives a redeploy of the API: the alarm topic (its email subscriptions
 * are confirmed by hand) and the optional customer-managed key.
 */
export class DataStack extends Stack {
  readonly ordersTable: Table;
  readonly idempotencyTable: Table;
  /** Every alarm of both stacks notifies this topic. */
  readonly alarmTopic: ITopic;
  /** With customerManagedKey: the key of the tables, the alarm topic and every log group. */
  readonly encryptionKey?: Key;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const removalPolicy = props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    if (props.customerManagedKey) this.encryptionKey = this.makeKey(removalPolicy);
    this.alarmTopic = props.alarmTopicArn
      ? Topic.fromTopicArn(this, "AlarmTopic", props.alarmTopicArn)
      : this.makeTopic(props.alarmEmails ?? []);
    const alarmTopic = this.alarmTopic;

    const build = (design: TableDesign, purpose: string): Table => {
      // DynamoDB would refuse the table (or the update adding an index) at deploy time; CDK's own check counts each
      // attribute name once, so it is checked here as DynamoDB counts.
      if (projectedAttributes(design) > maxProjectedAttributes)
        throw new Error(
          `The ${purpose} table's indexes would project ${projectedAttributes(design)} attributes, counted once per index; DynamoDB allows ${maxProjectedAttributes}.`,
        );
      // Every key attribute in the design is a string (ids, `TYPE#id` keys, ISO timestamps), hence STRING throughout.
      const table = new Table(this, design.id, {
        partitionKey: { name: design.partitionKey, type: AttributeType.STRING },
        ...(design.sortKey ? { sortKey: { name: design.sortKey, type: AttributeType.STRING } } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: props.deletionProtection,
        // The AWS managed key (aws/dynamodb) rather than the AWS owned default: no key fee, and every use of it is
        // in CloudTrail (Control Tower CT.DYNAMODB.PR.2). Switching either way is an in-place table update.
        ...(this.encryptionKey
          ? { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey: this.encryptionKey }
          : { encryption: TableEncryption.AWS_MANAGED }),
        ...(design.timeToLiveAttribute ? { timeToLiveAttribute: design.timeToLiveAttribute } : {}),
        removalPolicy,
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
      alarm.addAlarmAction(new SnsAction(alarmTopic));
      return table;
    };

    this.ordersTable = build(props.orderIndexStep === undefined ? ordersTable : ordersTableAt(props.orderIndexStep), "orders");
    this.idempotencyTable = build(idempotencyTable, "idempotency");
  }

  /**
   * The topic every alarm notifies, with an email subscription per address given (each address must confirm it).
   * Encrypted with the customer-managed key when there is one: CloudWatch cannot publish to a topic under the AWS
   * managed SNS key, whose policy this stack cannot extend.
   */
  private makeTopic(emails: string[]): Topic {
    const topic = new Topic(this, "AlarmTopic", {
      displayName: `order-tools alarms (${this.stackName})`,
      enforceSSL: true,
      ...(this.encryptionKey ? { masterKey: this.encryptionKey } : {}),
    });
    for (const email of emails) topic.addSubscription(new EmailSubscription(email));
    if (!this.encryptionKey) {
      NagSuppressions.addResourceSuppressions(topic, [
        {
          id: "AwsSolutions-SNS2",
          reason:
            "CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key, and an alarm message carries only the alarm's name, state, reason and description, no order or caller data. With customerManagedKey=true the topic is encrypted with the stack's own key, whose policy lets CloudWatch use it.",
        },
      ]);
    }
    return topic;
  }

  /**
   * One symmetric key, rotated yearly, for everything the stage stores. Its policy lets the account's principals use
   * it through DynamoDB only (what the AWS managed DynamoDB key allows, so the functions' roles need no KMS
   * grants), CloudWatch Logs encrypt this account's log groups in this region, and CloudWatch alarms publish to
   * the encrypted topic; and it refuses grants that are not for an AWS resource (Control Tower CT.KMS.PR.3).
   */
  private makeKey(removalPolicy: RemovalPolicy): Key {
    const key = new Key(this, "EncryptionKey", {
      description: `order-tools (${this.stackName}): tables, alarm topic and log groups`,
      enableKeyRotation: true,
      pendingWindow: Duration.days(30),
      removalPolicy,
    });
    key.addToResourcePolicy(
      new PolicyStatement({
        sid: "UseThroughDynamoDBByThisAccount",
        principals: [new AnyPrincipal()],
        actions: ["kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:CreateGrant", "kms:DescribeKey"],
        resources: ["*"],
        conditions: { StringEquals: { "kms:CallerAccount": Aws.ACCOUNT_ID, "kms:ViaService": `dynamodb.${Aws.REGION}.amazonaws.com` } },
      }),
    );
    key.addToResourcePolicy(
      new PolicyStatement({
        sid: "EncryptThisAccountsLogGroups",
        principals: [new ServicePrincipal(`logs.${Aws.REGION}.amazonaws.com`)],
        actions: ["kms:Encrypt*", "kms:Decrypt*", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:Describe*"],
        resources: ["*"],
        conditions: {
          ArnLike: { "kms:EncryptionContext:aws:logs:arn": `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:*` },
        },
      }),
    );
    key.addToResourcePolicy(
      new PolicyStatement({
        sid: "CloudWatchAlarmsPublishToTheTopic",
        principals: [new ServicePrincipal("cloudwatch.amazonaws.com")],
        actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
        resources: ["*"],
      }),
    );
    key.addToResourcePolicy(
      new PolicyStatement({
        sid: "GrantsOnlyForAwsResources",
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ["kms:CreateGrant"],
        resources: ["*"],
        conditions: { BoolIfExists: { "kms:GrantIsForAWSResource": "false", "aws:PrincipalIsAWSService": "false" } },
      }),
    );
    return key;
  }
}
