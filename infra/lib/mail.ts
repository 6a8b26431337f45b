import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

export interface MailProps {
  /** The sending domain (context `mailDomain`). Its DKIM records must be published before SES sends. */
  readonly domain: string;
}

/** SES domain identity and the From address the functions use. */
export class Mail extends Construct {
  readonly identity: EmailIdentity;
  readonly from: string;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    this.identity = new EmailIdentity(this, 'Identity', { identity: Identity.domain(props.domain) });
    this.from = `Live Transcribe <no-reply@${props.domain}>`;
  }
}
