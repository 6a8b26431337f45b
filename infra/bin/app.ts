import { App } from 'aws-cdk-lib';
import { defineStack } from '../lib/app.ts';

/** The CDK app `cdk synth` and `cdk deploy` run: one stack, from the context (lib/app.ts). */
defineStack(new App());
