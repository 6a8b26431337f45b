import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export interface DataProps {
  /** Production keeps the table (deletion protection, retain on stack delete). */
  readonly production: boolean;
  /**
   * Use this existing table (same region and account) instead of creating one: after a
   * point-in-time restore (README, Operations). Its TTL and point-in-time recovery are then
   * the operator's to set, and the table this stack created leaves the stack (prod: retained).
   */
  readonly existingTableName?: string;
  /** The existing table's stream ARN (context `tableStreamArn`, a KEYS_ONLY or wider stream): without it the caption relay is not deployed. */
  readonly existingTableStreamArn?: string;
}

/** The one DynamoDB table (docs/dynamodb.md). */
export class Data extends Construct {
  readonly table: ITableV2;
  /** False when the stack uses an existing table (context `tableName`). */
  readonly managed: boolean;
  /** The table's stream (the keys of every change), which feeds the caption relay; unknown for an existing table without `tableStreamArn`. */
  readonly streamArn?: string;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    this.managed = !props.existingTableName;
    if (props.existingTableName) {
      if (!/^[A-Za-z0-9_.-]{3,255}$/.test(props.existingTableName)) throw new Error(`tableName "${props.existingTableName}" is not a DynamoDB table name`);
      this.table = props.existingTableStreamArn
        ? TableV2.fromTableAttributes(this, 'Table', { tableName: props.existingTableName, tableStreamArn: props.existingTableStreamArn })
        : TableV2.fromTableName(this, 'Table', props.existingTableName);
      this.streamArn = props.existingTableStreamArn;
      return;
    }
    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: 'PK', type: AttributeType.STRING },
      sortKey: { name: 'SK', type: AttributeType.STRING },
      globalSecondaryIndexes: [
        {
          indexName: 'GSI1',
          partitionKey: { name: 'GSI1PK', type: AttributeType.STRING },
          sortKey: { name: 'GSI1SK', type: AttributeType.STRING },
          projectionType: ProjectionType.ALL,
        },
      ],
      billing: Billing.onDemand(),
      timeToLiveAttribute: 'expiresAt',
      // The keys of every change: the caption relay reads what it needs (functions/src/db/table.ts makes the same locally).
      dynamoStream: StreamViewType.KEYS_ONLY,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.production,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.streamArn = this.table.tableStreamArn;
  }
}
