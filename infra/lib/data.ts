import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export interface DataProps {
  /** Production keeps the table (deletion protection, retain on stack delete). */
  readonly production: boolean;
}

/** The one DynamoDB table (DESIGN section 3, docs/dynamodb.md). */
export class Data extends Construct {
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
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
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.production,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  }
}
